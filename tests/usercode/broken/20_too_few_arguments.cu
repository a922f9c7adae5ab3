// expect-error 4: too few arguments in function call
__device__ float mix(float a, float b, float t) { return a + t * (b - a); }
__global__ void k(float* out) {
  out[0] = mix(out[0], out[1]);
}
