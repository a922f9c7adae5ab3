#pragma once
// Four elements at a time: 4 u8 in one 32-bit word, 4 f32 or 4 int32 in one 16-byte vector. The callers keep
// addresses aligned (pitched rows, tiles and offsets in multiples of 4 elements), which these rely on.
#include <cuda_runtime.h>

#include <cstdint>

namespace ks::cuda {

__device__ __forceinline__ void load4(const std::uint8_t* p, std::int32_t (&v)[4]) {
  const std::uint32_t w = *reinterpret_cast<const std::uint32_t*>(p);
#pragma unroll
  for (int i = 0; i < 4; ++i) v[i] = std::int32_t((w >> (8 * i)) & 0xffu);
}
__device__ __forceinline__ void load4(const float* p, float (&v)[4]) {
  const float4 f = *reinterpret_cast<const float4*>(p);
  v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
}
__device__ __forceinline__ void load4(const std::int32_t* p, std::int32_t (&v)[4]) {
  const int4 f = *reinterpret_cast<const int4*>(p);
  v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
}
// Into the upper half of an 8-entry weight window.
template <class A>
__device__ __forceinline__ void load4_high(const A* p, A (&w)[8]) {
  A v[4];
  load4(p, v);
#pragma unroll
  for (int i = 0; i < 4; ++i) w[4 + i] = v[i];
}

__device__ __forceinline__ void store4(std::uint8_t* p, const std::uint8_t (&v)[4]) {
  *reinterpret_cast<std::uint32_t*>(p) =
      std::uint32_t(v[0]) | std::uint32_t(v[1]) << 8 | std::uint32_t(v[2]) << 16 | std::uint32_t(v[3]) << 24;
}
__device__ __forceinline__ void store4(float* p, const float (&v)[4]) {
  *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
}
__device__ __forceinline__ void store4(std::int32_t* p, const std::int32_t (&v)[4]) {
  *reinterpret_cast<int4*>(p) = make_int4(v[0], v[1], v[2], v[3]);
}

// A slice of a row kept packed in registers: 8 u8 (8 bytes) or 4 f32 (16 bytes). Eight u8 rather than sixteen:
// a 16-byte slice's 16 int32 sums cost more registers than the wider access saves.
template <class T>
struct SliceOf;
template <>
struct SliceOf<std::uint8_t> {
  using type = uint2;
};
template <>
struct SliceOf<float> {
  using type = uint4;
};
template <class T>
using Slice = typename SliceOf<T>::type;
template <class T>
constexpr int kSliceElems = int(sizeof(Slice<T>) / sizeof(T));

// Element i of a slice (i is a compile-time constant after unrolling).
__device__ __forceinline__ std::int32_t element(const uint2& q, int i) {
  return std::int32_t(((i < 4 ? q.x : q.y) >> (8 * (i & 3))) & 0xffu);
}
__device__ __forceinline__ float element(const uint4& q, int i) {
  return __uint_as_float(i == 0 ? q.x : i == 1 ? q.y : i == 2 ? q.z : q.w);
}

__device__ __forceinline__ uint2 pack_slice(const std::uint8_t (&v)[8]) {
  unsigned w[2];
#pragma unroll
  for (int k = 0; k < 2; ++k)
    w[k] = unsigned(v[4 * k]) | unsigned(v[4 * k + 1]) << 8 | unsigned(v[4 * k + 2]) << 16 |
           unsigned(v[4 * k + 3]) << 24;
  return make_uint2(w[0], w[1]);
}
__device__ __forceinline__ uint4 pack_slice(const float (&v)[4]) {
  return make_uint4(__float_as_uint(v[0]), __float_as_uint(v[1]), __float_as_uint(v[2]), __float_as_uint(v[3]));
}

}  // namespace ks::cuda
