// expect-error 2: cannot open source file "my_helpers.cuh"
#include "my_helpers.cuh"
__global__ void k(float* out) { out[0] = helper(); }
