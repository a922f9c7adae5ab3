// expect-error 3: cannot be used to initialize an entity of type "float"
__global__ void k(float* out) {
  float x = "1.5";
  out[0] = x;
}
