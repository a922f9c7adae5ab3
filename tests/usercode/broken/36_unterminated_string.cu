// expect-error 3: missing closing quote
__global__ void k(float* out) {
  const char* s = "abc;
  out[0] = s[0];
}
