#version 450
// A tessellation control shader: patch outputs, per-vertex arrays.
layout(vertices = 3) out;
layout(location = 0) in vec3 in_position[];
layout(location = 0) out vec3 out_position[];
layout(location = 1) patch out float edge;
layout(binding = 0) uniform Levels { float inner; float outer; } levels;
void main() {
  out_position[gl_InvocationID] = in_position[gl_InvocationID];
  if (gl_InvocationID == 0) {
    gl_TessLevelInner[0] = levels.inner;
    for (int i = 0; i < 3; ++i) gl_TessLevelOuter[i] = levels.outer * float(i + 1);
    edge = distance(in_position[0], in_position[1]);
  }
}
