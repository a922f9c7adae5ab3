// expect-error 4: no instance of function template
template <typename T>
__global__ void k(T* out) { out[0] = T(0); }
template __global__ void k<float, int>(float*);
