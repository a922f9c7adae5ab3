// expect-error 3: identifier "threadidx" is undefined
__global__ void k(float* out) {
  out[threadidx.x] = 0.f;
}
