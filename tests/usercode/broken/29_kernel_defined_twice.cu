// expect-error 3: has already been defined
__global__ void k(float* out) { out[0] = 0.f; }
__global__ void k(float* out) { out[0] = 1.f; }
