// expect-error 4: continue statement may only be used within a loop
__global__ void k(float* out) {
  out[0] = 0.f;
  continue;
}
