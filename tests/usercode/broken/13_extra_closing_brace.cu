// expect-error 5: expected a declaration
__global__ void k(float* out) {
  out[0] = 1.f;
}
}
