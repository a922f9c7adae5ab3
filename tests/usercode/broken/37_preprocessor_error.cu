// expect-error 3: RADIUS must be defined
#ifndef RADIUS
#error "RADIUS must be defined"
#endif
__global__ void k(float* out) { out[0] = 0.f; }
