// expect-error 2: return type
__global__ int k(float* out) {
  out[0] = 1.f;
  return 0;
}
