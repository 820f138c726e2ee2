// Template kernels for the GPU targets' device code (CUDA for NVPTX, HIP for AMDGPU), without
// the toolkits' headers: their kernels' calling conventions forbid calls (no thunks, spec §6),
// and shared memory and kernel arguments live in address spaces of their own.
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#if defined(__HIP__)
#define TID __builtin_amdgcn_workitem_id_x()
#define BID __builtin_amdgcn_workgroup_id_x()
#define __syncthreads() __builtin_amdgcn_s_barrier()
#else
#define TID __nvvm_read_ptx_sreg_tid_x()
#define BID __nvvm_read_ptx_sreg_ctaid_x()
#define __syncthreads() __nvvm_bar_sync(0)
#endif
template <typename T> __device__ T twice(T x) { return x + x; }
template <typename T> __global__ void kern(T *a, int n) {
  int i = BID * 64 + TID;
  if (i < n) a[i] = twice(a[i]);
}
template <typename T> __device__ __attribute__((noinline)) T load(const T *p) { return *p; }
template <typename T> __global__ void copy(T *d, const T *s, int n) {
  int i = TID;
  __shared__ T buf[64];
  buf[i] = load(s + i);
  __syncthreads();
  if (i < n) d[i] = buf[63 - i];
}
template __global__ void kern<int>(int *, int);
template __global__ void kern<unsigned>(unsigned *, int);
template __global__ void kern<float>(float *, int);
template __global__ void copy<int>(int *, const int *, int);
template __global__ void copy<unsigned>(unsigned *, const unsigned *, int);
template __global__ void copy<float>(float *, const float *, int);
