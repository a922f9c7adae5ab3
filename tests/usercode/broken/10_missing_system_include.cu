// expect-error 2: open source file "thrust/device_vector.h"
#include <thrust/device_vector.h>
__global__ void k(float* out) { out[0] = 0.f; }
