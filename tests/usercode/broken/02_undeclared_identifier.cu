// expect-error 4: identifier "scale" is undefined
__global__ void k(float* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = scale * 2.f;
}
