// expect-error 3: name followed by "::" must be a class or namespace name
template <typename T>
__global__ void k(T* out) { out[0] = T::zero(); }
template __global__ void k<float>(float*);
