// expect-error 4: argument of type "float *" is incompatible with parameter of type "int"
__device__ int square(int v) { return v * v; }
__global__ void k(float* out) {
  out[0] = square(out);
}
