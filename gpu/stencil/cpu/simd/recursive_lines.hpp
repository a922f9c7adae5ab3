#pragma once
// The loops of the CPU recursive Gaussian (stencil/recursive_gaussian.hpp) in SIMD (Google Highway): many lines
// side by side, one lane each, every line run through the recursion sample by sample. Sample p of line i is
// x[p][i] (i in [0, n)): the image's rows for the column pass (a line per element column), a transposed band of
// rows for the row pass. The recursion itself is sequential along a line, so the vectors run across lines; a few
// vectors of lines at once keep several independent chains of multiply-adds in flight.
#include <cstddef>
#include <cstdint>

#include "stencil/recursive_gaussian.hpp"

namespace ks::cpu::simd {

// The causal pass over samples [0, count): w[p] = b x[p] + a1 w[p-1] + a2 w[p-2] + a3 w[p-3]. `state` holds
// 3 * n floats, w[-1], w[-2] and w[-3] of every line, and is left holding the last three. `w` may be null (the
// warm-up over a border's extension keeps nothing). With `acc` (3 * n floats), each w[p] is also added to the
// anti-causal start state: acc[k * n + i] += h[p - k] * w[p][i] for k = 0, 1, 2 and p >= k (see
// recursive_gaussian.hpp; `h` is RecursiveGaussian::tail, at least count entries).
void causal_lines(const float* const* x, float* const* w, std::size_t count, std::size_t n, float* state,
                  const RecursiveGaussian& f, float* acc = nullptr);

// The anti-causal pass over samples count-1 down to 0: v[p] = b w[p] + a1 v[p+1] + a2 v[p+2] + a3 v[p+3], from
// `state` (3 * n floats: v[count], v[count+1], v[count+2]). Writes v (float; may be w itself), or on u8 rounded
// half up and saturated as the stencils round (stencil_math.hpp's saturate_u8).
void anticausal_lines(const float* const* w, float* const* v, std::size_t count, std::size_t n, const float* state,
                      const RecursiveGaussian& f);
void anticausal_lines(const float* const* w, std::uint8_t* const* v, std::size_t count, std::size_t n,
                      const float* state, const RecursiveGaussian& f);

}  // namespace ks::cpu::simd
