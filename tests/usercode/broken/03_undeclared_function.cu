// expect-error 3: identifier "compute" is undefined
__global__ void k(float* out) {
  out[0] = compute(out[1]);
}
