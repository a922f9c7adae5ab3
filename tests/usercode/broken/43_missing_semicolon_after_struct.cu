// expect-error 5: expected a ";"
struct Pair {
  float a, b;
}
__global__ void k(float* out) { out[0] = 0.f; }
