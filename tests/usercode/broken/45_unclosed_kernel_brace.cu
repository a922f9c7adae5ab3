// expect-end-of-source 5: brace 2
__global__ void k(float* out, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = 0.f;
  }
