// expect-error 3: identifier "undefined_helper" is undefined
template <typename T>
__device__ T twice(T v) { return undefined_helper(v); }
__global__ void k(float* out) { out[0] = twice(out[0]); }
