// OpenCL C for SPIR and AMDGPU: `spir_kernel` and `amdgpu_kernel` functions, address spaces.
int twice_i(int x) { return x + x; }
uint twice_u(uint x) { return x + x; }
__kernel void ki(__global int *a) { size_t i = get_global_id(0); a[i] = twice_i(a[i]); }
__kernel void ku(__global uint *a) { size_t i = get_global_id(0); a[i] = twice_u(a[i]); }
__kernel void kf(__global float *a, __local float *l) { size_t i = get_local_id(0); l[i] = a[i]; barrier(CLK_LOCAL_MEM_FENCE); a[i] = l[63 - i]; }
__kernel void kg(__global float *a, __local float *l) { size_t i = get_local_id(0); l[i] = a[i]; barrier(CLK_LOCAL_MEM_FENCE); a[i] = l[63 - i]; }
