#version 450
// A fragment shader: textures, a uniform block, a storage buffer of structs, loops, switch.
layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D albedo;
layout(binding = 1) uniform Frame { mat4 view; vec4 tint; float time; int count; } frame;
struct Light { vec3 position; float radius; vec3 color; uint kind; };
layout(std430, binding = 2) readonly buffer Lights { Light lights[]; };
vec3 shade(vec3 n, Light l) {
  float d = max(dot(n, normalize(l.position)), 0.0);
  switch (l.kind) {
    case 0u: return l.color * d;
    case 1u: return l.color * d / (1.0 + l.radius);
    default: return l.color * pow(d, 8.0);
  }
}
void main() {
  vec4 base = texture(albedo, uv) * frame.tint;
  vec3 sum = vec3(0.0);
  for (int i = 0; i < frame.count; ++i) {
    sum += shade(normalize(normal), lights[i]);
    if (sum.x > 16.0) break;
  }
  color = vec4(sum, 1.0) * base + frame.view * vec4(uv, sin(frame.time), 1.0);
}
