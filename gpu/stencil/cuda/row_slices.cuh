#pragma once
// Loading a slice of a row (8 u8 or 4 f32 elements, see vector_access.cuh) the way the 3x3 register kernels walk
// the image: one vector load where the slice is inside the image, the border rule element by element elsewhere.
#include "stencil/cuda/stencil_device.cuh"
#include "stencil/cuda/vector_access.cuh"

namespace ks::cuda {

// The slice of row y (remapped) starting at element e0, element by element: where the slice leaves the image or
// the row is the constant border. Out of line: it is rare, and inlined its registers would weigh on the hot loop.
template <class T, int C>
__device__ __noinline__ Slice<T> load_slice_edge(const ImageView<T, C> in, int yy, int e0, const BorderRead border) {
  T v[kSliceElems<T>];
  const T* row = yy >= 0 ? in.row(yy) : nullptr;
#pragma unroll
  for (int i = 0; i < kSliceElems<T>; ++i) v[i] = border.read_element(in, row, yy, e0 + i);
  return pack_slice(v);
}

template <class T, int C>
__device__ __forceinline__ Slice<T> load_slice(const ImageView<T, C>& in, int y, int e0, const BorderRead& border) {
  const int yy = remap(y, in.height, border.mode);
  if (yy >= 0 && e0 >= 0 && e0 + kSliceElems<T> <= in.row_elements())
    return __ldg(reinterpret_cast<const Slice<T>*>(in.row(yy) + e0));
  return load_slice_edge(in, yy, e0, border);
}

}  // namespace ks::cuda
