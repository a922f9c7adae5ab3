// The sum of an array through shared memory: each block adds its elements in a tree in shared memory, then one
// thread per block adds the block's sum to the result with atomicAdd.
// Family `array` with a scalar output: kernelscope sets out[0] to 0 before the launch and reads it after. The
// block size must be a power of two of at most 1024 (the shared array below has room for 1024 values).
// @family array
// @output scalar

__global__ void reduce_sum(const float* in, float* out, int n) {
  __shared__ float partial[1024];
  const int tid = static_cast<int>(threadIdx.x);
  const int i = ks::global_index();
  partial[tid] = i < n ? in[i] : 0.f;
  __syncthreads();
  for (int stride = static_cast<int>(blockDim.x) / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}
