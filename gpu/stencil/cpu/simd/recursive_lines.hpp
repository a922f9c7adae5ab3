#pragma once
// The loops of the CPU recursive Gaussian (stencil/recursive_gaussian.hpp) in SIMD (Google Highway): many lines
// side by side, one lane each, every line run through the recursions sample by sample. Sample p of line i is
// x[p][i] (i in [0, n)): the image's rows for the column pass (a line per element column), a transposed band of
// rows for the row pass. A recursion is sequential along its line, so the vectors run across lines; two vectors
// of lines and two sections at once keep four independent chains of multiply-adds in flight.
#include <cstddef>
#include <cstdint>

#include "stencil/recursive_gaussian.hpp"

namespace ks::cpu::simd {

// Floats of state per line: the causal pass's x[p-1] and each section's last two outputs; the anti-causal pass's
// x[p+1], x[p+2] and each section's last two outputs.
inline constexpr std::size_t kCausalState = 5, kAnticausalState = 6;

// The steady states for lines that have been `first[i]` for ever (state: kCausalState or kAnticausalState
// times n floats, one block of n per entry).
void start_causal(float* state, const float* first, std::size_t n, const RecursiveGaussian& f);
void start_anticausal(float* state, const float* first, std::size_t n, const RecursiveGaussian& f);

// The causal pass over samples [0, count), writing the sum of the sections' outputs to y[p] (unless y is null:
// a warm-up over a border's extension keeps nothing). `state` is carried from and to the call before and after.
void causal_lines(const float* const* x, float* const* y, std::size_t count, std::size_t n, float* state,
                  const RecursiveGaussian& f);

// The anti-causal pass over samples count-1 down to 0: y[p] = causal[p] + the sections' anti-causal outputs,
// float or (u8) rounded half up and saturated as the stencils round (stencil_math.hpp's saturate_u8). y may be
// causal itself. With causal and y null, a warm-up that keeps nothing.
void anticausal_lines(const float* const* x, const float* const* causal, float* const* y, std::size_t count,
                      std::size_t n, float* state, const RecursiveGaussian& f);
void anticausal_lines(const float* const* x, const float* const* causal, std::uint8_t* const* y,
                      std::size_t count, std::size_t n, float* state, const RecursiveGaussian& f);

}  // namespace ks::cpu::simd
