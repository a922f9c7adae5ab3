// expect-error 3: initializer not allowed for __shared__ variable
__global__ void k(float* out) {
  __shared__ float total = 0.f;
  out[0] = total;
}
