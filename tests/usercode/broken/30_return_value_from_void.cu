// expect-error 3: return value type does not match the function type
__global__ void k(float* out) {
  return out[0];
}
