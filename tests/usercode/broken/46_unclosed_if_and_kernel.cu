// expect-end-of-source 4: brace 3
__global__ void k(float* out, int n) {
  if (threadIdx.x < n) {
    out[threadIdx.x] = 0.f;
