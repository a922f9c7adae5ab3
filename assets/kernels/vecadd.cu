// Vector add: out[i] = a[i] + scale * b[i] for every i < n.
// Family `array`: the inputs come from the lab's generators or .npy files; one thread per element, in a 1-D grid
// that may have more threads than elements (hence the bound check).
// @family array
// @output array
// @param scale float [-10, 10] = 1   the factor b is multiplied by

__global__ void vecadd(const float* a, const float* b, float* out, int n, float scale) {
  const int i = ks::global_index();
  if (i < n) out[i] = a[i] + scale * b[i];
}
