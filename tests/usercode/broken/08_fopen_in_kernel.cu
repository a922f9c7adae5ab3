// expect-error 3: identifier "fopen" is undefined
__global__ void k(float* out) {
  fopen("values.txt", "r");
}
