// expect-error 3: break statement may only be used within a loop or switch
__global__ void k(float* out) {
  break;
  out[0] = 0.f;
}
