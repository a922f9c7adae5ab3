// expect-error 4: expression must have a constant value
__global__ void k(float* out) {
  int size = 256;
  __shared__ float tile[size];
  tile[threadIdx.x] = out[threadIdx.x];
  out[0] = tile[0];
}
