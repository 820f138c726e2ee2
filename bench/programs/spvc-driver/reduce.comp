#version 450
// A compute shader: shared memory, barriers, push constants, atomics.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Input { float values[]; };
layout(std430, binding = 1) buffer Output { uint done; float sums[]; };
layout(push_constant) uniform Params { uint n; float scale; } params;
shared float partial[64];
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint l = gl_LocalInvocationID.x;
  partial[l] = i < params.n ? values[i] : 0.0;
  barrier();
  for (uint step = 32u; step > 0u; step >>= 1) {
    if (l < step) partial[l] += partial[l + step];
    barrier();
  }
  if (l == 0u) {
    sums[gl_WorkGroupID.x] = partial[0] * params.scale;
    atomicAdd(done, 1u);
  }
}
