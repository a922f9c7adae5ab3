#pragma once
// The shared tile of the multi-output kernels (median_network.cu, window_multi.cu): rows of whole quads (4 u8
// elements in one 32-bit word, or 4 floats in one float4), the halo rounded out to whole quads so that every
// load and every shared-memory access is a full, aligned word or vector. A row of quads is read by consecutive
// threads (coalesced), through the border rule only where a quad leaves the image.
#include <cstdint>

#include "stencil/cuda/stencil_device.cuh"
#include "stencil/cuda/tile_fill.cuh"

namespace ks::cuda {

template <class T>
struct QuadOf;
template <>
struct QuadOf<std::uint8_t> {
  using type = std::uint32_t;
};
template <>
struct QuadOf<float> {
  using type = float4;
};
template <class T>
using Quad = typename QuadOf<T>::type;

// Elements e .. e+3 of the (remapped) row yy, element by element through the border rule. Out of line: rare.
template <class T, int C>
__device__ __noinline__ Quad<T> quad_at_edge(const ImageView<T, C> in, const T* row, int yy, int e,
                                             const BorderRead border) {
  T v[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) v[i] = border.read_element(in, row, yy, e + i);
  if constexpr (sizeof(T) == 1)
    return std::uint32_t(v[0]) | std::uint32_t(v[1]) << 8 | std::uint32_t(v[2]) << 16 | std::uint32_t(v[3]) << 24;
  else
    return make_float4(v[0], v[1], v[2], v[3]);
}

// Fills `rows` tile rows of `quads` quads each; tile row t, quad q holds the image's elements e0 + 4q .. + 3 of
// row y0 + t (e0 a multiple of 4), cells walked as tile_fill.cuh says. A tile inside the image (most of them)
// loads plain words or vectors, several in flight per thread; one that leaves it goes through the border rule.
// All threads of the block take part (the caller synchronises).
template <class T, int C>
__device__ __forceinline__ void load_quad_tile(unsigned char* tile, int pitch, const ImageView<T, C>& in, int e0,
                                               int y0, int quads, int rows, const BorderRead& border) {
  const int row_elements = in.row_elements();
  if (e0 >= 0 && e0 + 4 * quads <= row_elements && y0 >= 0 && y0 + rows <= in.height) {
    const unsigned char* origin = reinterpret_cast<const unsigned char*>(in.row(y0) + e0);
    fill_tile<Quad<T>, sizeof(T) == 1 ? 4 : 2>(tile, pitch, quads, rows, [&](int t, int q) {
      return __ldg(reinterpret_cast<const Quad<T>*>(origin + unsigned(t) * in.pitch) + q);
    });
    return;
  }
  fill_tile<Quad<T>, 1>(tile, pitch, quads, rows, [&](int t, int q) {
    const int yy = remap(y0 + t, in.height, border.mode), e = e0 + 4 * q;
    const T* src = yy >= 0 ? in.row(yy) : nullptr;
    return yy >= 0 && e >= 0 && e + 4 <= row_elements ? __ldg(reinterpret_cast<const Quad<T>*>(src + e))
                                                       : quad_at_edge(in, src, yy, e, border);
  });
}

// Stores the 4 elements of a quad at element x0 of row y, element by element where the quad passes the row's end.
template <class T, int C>
__device__ __forceinline__ void store_quad(const ImageView<T, C>& out, int x0, int y, const T (&v)[4]) {
  T* row = out.row(y);
  if (x0 + 4 <= out.row_elements()) {
    if constexpr (sizeof(T) == 1)
      *reinterpret_cast<std::uint32_t*>(row + x0) = std::uint32_t(v[0]) | std::uint32_t(v[1]) << 8 |
                                                    std::uint32_t(v[2]) << 16 | std::uint32_t(v[3]) << 24;
    else
      *reinterpret_cast<float4*>(row + x0) = make_float4(v[0], v[1], v[2], v[3]);
    return;
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
    if (x0 + i < out.row_elements()) row[x0 + i] = v[i];
}

}  // namespace ks::cuda
