// expect-error 4: too many arguments in function call
__device__ float twice(float a) { return 2.f * a; }
__global__ void k(float* out) {
  out[0] = twice(out[0], out[1]);
}
