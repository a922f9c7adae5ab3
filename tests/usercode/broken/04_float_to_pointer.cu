// expect-error 3: cannot be used to initialize an entity of type "float *"
__global__ void k(float* out) {
  float* p = 1.5f;
  out[0] = *p;
}
