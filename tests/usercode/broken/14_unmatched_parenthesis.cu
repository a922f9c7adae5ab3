// expect-error 4: expected a ")"
__global__ void k(float* out, int n) {
  int i = threadIdx.x;
  if (i < n {
    out[i] = 0.f;
  }
}
