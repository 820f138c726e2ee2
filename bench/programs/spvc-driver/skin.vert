#version 450
// A vertex shader: attributes, a uniform block with arrays and matrices, outputs.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 3) in uvec4 joints;
layout(location = 4) in vec4 weights;
layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec3 out_normal;
layout(binding = 0) uniform Skin { mat4 view_projection; mat4 bones[32]; } skin;
void main() {
  mat4 m = mat4(0.0);
  for (int k = 0; k < 4; ++k) m += skin.bones[joints[k]] * weights[k];
  out_uv = uv;
  out_normal = mat3(m) * normal;
  gl_Position = skin.view_projection * m * vec4(position, 1.0);
}
