// expect-error 3: expression must have a constant value
__global__ void k(float* out, int n) {
  __shared__ float tile[n];
  tile[threadIdx.x] = out[threadIdx.x];
  out[0] = tile[0];
}
