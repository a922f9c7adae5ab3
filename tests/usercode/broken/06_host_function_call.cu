// expect-error 2: host functions are not allowed in JIT mode
float host_scale(float v) { return v * 2.f; }
__global__ void k(float* out) {
  out[0] = host_scale(out[0]);
}
