// expect-error 3: must have integral or unscoped enum type
__global__ void k(float* out) {
  out[0] = out[1] % 2.f;
}
