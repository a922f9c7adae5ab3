// expect-error 2: static assertion failed
static_assert(sizeof(float) == 8, "float must be 8 bytes here");
__global__ void k(float* out) { out[0] = 0.f; }
