// expect-error 2: explicit type is missing
__global__ k(float* out) {
  out[0] = 1.f;
}
