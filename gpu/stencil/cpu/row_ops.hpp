#pragma once
// The inner loops of the CPU stencils: one weight times one contiguous run of elements, added into an
// accumulator row. Plain arrays, restrict-qualified, no calls inside, so that g++ auto-vectorizes them
// (u8 -> int32 widening adds, float -> double multiply-adds).
#include <cstddef>

namespace ks::cpu {

// Calls f(i) for i in [0, n): in groups of a fixed 64 and then one by one. The fixed-count inner loop is what
// lets g++ -O2 vectorize (its "very cheap" cost model only takes loops whose trip count is a known multiple
// of the vector width). 64, not 16: at -O3 g++ completely peels inner loops of up to 16 iterations before the
// vectorizer sees them, and the peeled straight-line code does not always vectorize (u8 min/max did not).
template <class F>
inline void for_lanes(std::size_t n, F&& f) {
  constexpr std::size_t kLanes = 64;
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (std::size_t l = 0; l < kLanes; ++l) f(i + l);
  for (; i < n; ++i) f(i);
}

// acc[i] = w * src[i]
template <class Acc, class Src>
inline void mul_set(Acc* __restrict acc, const Src* __restrict src, std::size_t n, Acc w) {
  if (w == Acc(1)) {  // box filters: skip the multiply (an emulated pmulld on baseline x86-64)
    for_lanes(n, [&](std::size_t i) { acc[i] = Acc(src[i]); });
  } else {
    for_lanes(n, [&](std::size_t i) { acc[i] = w * Acc(src[i]); });
  }
}

// acc[i] += w * src[i]
template <class Acc, class Src>
inline void mul_add(Acc* __restrict acc, const Src* __restrict src, std::size_t n, Acc w) {
  if (w == Acc(1)) {
    for_lanes(n, [&](std::size_t i) { acc[i] += Acc(src[i]); });
  } else if (w == Acc(-1)) {  // derivative filters
    for_lanes(n, [&](std::size_t i) { acc[i] -= Acc(src[i]); });
  } else {
    for_lanes(n, [&](std::size_t i) { acc[i] += w * Acc(src[i]); });
  }
}

// acc[i] = sum over taps t of w[t] * rows[t][i]; taps with weight 0 are skipped (sobel's middle column), an
// all-zero filter gives zeros.
template <class Acc, class Src>
inline void weighted_sum(Acc* __restrict acc, std::size_t n, const Src* const* rows, const Acc* w, int taps) {
  bool first = true;
  for (int t = 0; t < taps; ++t) {
    if (w[t] == Acc(0)) continue;
    if (first) {
      mul_set(acc, rows[t], n, w[t]);
      first = false;
    } else {
      mul_add(acc, rows[t], n, w[t]);
    }
  }
  if (first)
    for (std::size_t i = 0; i < n; ++i) acc[i] = Acc(0);
}

}  // namespace ks::cpu
