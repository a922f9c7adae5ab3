// expect-error 4: operand of "*" must be a pointer
__global__ void k(float* out) {
  int a = 0;
  *a = 1;
  out[0] = a;
}
