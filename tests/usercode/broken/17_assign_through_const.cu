// expect-error 3: expression must be a modifiable lvalue
__global__ void k(const float* in, float* out) {
  in[0] = out[0];
}
