// expect-error 4: identifier "__syncthread" is undefined
__global__ void k(float* out) {
  out[threadIdx.x] = 0.f;
  __syncthread();
}
