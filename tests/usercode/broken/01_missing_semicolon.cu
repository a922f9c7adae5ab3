// expect-error 4: expected a ";"
__global__ void k(float* out) {
  int i = threadIdx.x
  out[i] = 1.f;
}
