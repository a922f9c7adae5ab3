// expect-error 3: cannot be used to initialize an entity of type "int *"
__global__ void k(float* out) {
  int* q = out;
  q[0] = 1;
}
