// expect-error 4: has already been declared in the current scope
__global__ void k(float* out) {
  int i = 0;
  int i = 1;
  out[i] = 0.f;
}
