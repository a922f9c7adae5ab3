// expect-error 3: no suitable conversion function from "const uint3" to "int"
__global__ void k(float* out) {
  int i = threadIdx;
  out[i] = 0.f;
}
