// expect-error 2: explicitly marked as a __host__ function is not allowed in JIT mode
__host__ void report(float v) { printf("%f\n", v); }
__global__ void k(float* out) {
  report(out[0]);
}
