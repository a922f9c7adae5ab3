// expect-error 3: namespace "std" has no member "cout"
__global__ void k(float* out) {
  std::cout << out[0];
}
