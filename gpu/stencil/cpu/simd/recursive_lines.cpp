// Highway compiles this file once per instruction set (foreach_target.h re-includes it); the functions at the
// end dispatch to the best one the CPU supports.
// clang-format off: foreach_target.h must follow HWY_TARGET_INCLUDE and come before highway.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "stencil/cpu/simd/recursive_lines.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// clang-format on
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "stencil/cpu/simd/recursive_lines.hpp"

HWY_BEFORE_NAMESPACE();
namespace ks::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Vectors of lines run together (each with both sections): a step of a section waits for its step before (a
// multiply-add's latency), so two vectors of two sections give four independent chains.
constexpr std::size_t kChains = 2;

// Samples fetched ahead of the recursion. In the column pass consecutive samples of a line lie a row apart, a
// stride the hardware prefetchers do not follow across pages, so each step would wait for memory without this.
constexpr std::size_t kAhead = 16;

// One section's coefficients as vectors.
template <class D>
struct SectionVec {
  hn::Vec<D> n0, n1, m1, m2, d1, d2;
  SectionVec(D d, const RecursiveSection& s)
      : n0(hn::Set(d, s.n0)), n1(hn::Set(d, s.n1)), m1(hn::Set(d, s.m1)), m2(hn::Set(d, s.m2)),
        d1(hn::Set(d, s.d1)), d2(hn::Set(d, s.d2)) {}
};

// The lines [i, i + K * N) through the causal pass (D: N lanes; K vectors).
template <std::size_t K, class D>
HWY_INLINE void causal_block(D d, const float* const* x, float* const* y, std::size_t count, std::size_t n,
                             float* state, const RecursiveGaussian& f, std::size_t i) {
  const std::size_t N = hn::Lanes(d);
  const SectionVec<D> s0(d, f.section[0]), s1(d, f.section[1]);
  hn::Vec<D> xp[K], a1[K], a2[K], b1[K], b2[K];  // x[p-1]; section 0's and section 1's last two outputs
  for (std::size_t k = 0; k < K; ++k) {
    const std::size_t at = i + k * N;
    xp[k] = hn::LoadU(d, state + at);
    a1[k] = hn::LoadU(d, state + n + at);
    a2[k] = hn::LoadU(d, state + 2 * n + at);
    b1[k] = hn::LoadU(d, state + 3 * n + at);
    b2[k] = hn::LoadU(d, state + 4 * n + at);
  }
  for (std::size_t p = 0; p < count; ++p) {
    if (p + kAhead < count) {
      hwy::Prefetch(x[p + kAhead] + i);
      if (y) hwy::Prefetch(y[p + kAhead] + i);
    }
    for (std::size_t k = 0; k < K; ++k) {
      const auto v = hn::LoadU(d, x[p] + i + k * N);
      // The newest output last, so that one multiply-add per section waits for the step before.
      const auto a = hn::MulAdd(s0.d1, a1[k], hn::MulAdd(s0.d2, a2[k], hn::MulAdd(s0.n1, xp[k], hn::Mul(s0.n0, v))));
      const auto b = hn::MulAdd(s1.d1, b1[k], hn::MulAdd(s1.d2, b2[k], hn::MulAdd(s1.n1, xp[k], hn::Mul(s1.n0, v))));
      xp[k] = v;
      a2[k] = a1[k];
      a1[k] = a;
      b2[k] = b1[k];
      b1[k] = b;
      if (y) hn::StoreU(hn::Add(a, b), d, y[p] + i + k * N);
    }
  }
  for (std::size_t k = 0; k < K; ++k) {
    const std::size_t at = i + k * N;
    hn::StoreU(xp[k], d, state + at);
    hn::StoreU(a1[k], d, state + n + at);
    hn::StoreU(a2[k], d, state + 2 * n + at);
    hn::StoreU(b1[k], d, state + 3 * n + at);
    hn::StoreU(b2[k], d, state + 4 * n + at);
  }
}

// v as the output type: float, or rounded half up and saturated to 0..255 as saturate_u8 does (NaN -> 0).
template <class D>
HWY_INLINE void store_out(D d, hn::Vec<D> v, float* out) {
  hn::StoreU(v, d, out);
}
template <class D>
HWY_INLINE void store_out(D d, hn::Vec<D> v, std::uint8_t* out) {
  const hn::Rebind<std::int32_t, D> di;
  const hn::Rebind<std::uint8_t, D> du8;
  // Max first: it returns its second operand for NaN lanes on x86 (maxps), so NaN becomes 0.
  const auto clamped = hn::Min(hn::Max(hn::Add(v, hn::Set(d, 0.5f)), hn::Zero(d)), hn::Set(d, 255.f));
  hn::StoreU(hn::DemoteTo(du8, hn::ConvertTo(di, hn::Floor(clamped))), du8, out);
}

template <std::size_t K, class D, class Out>
HWY_INLINE void anticausal_block(D d, const float* const* x, const float* const* causal, Out* const* y,
                                 std::size_t count, std::size_t n, float* state, const RecursiveGaussian& f,
                                 std::size_t i) {
  const std::size_t N = hn::Lanes(d);
  const SectionVec<D> s0(d, f.section[0]), s1(d, f.section[1]);
  hn::Vec<D> x1[K], x2[K], a1[K], a2[K], b1[K], b2[K];  // x[p+1], x[p+2]; the sections' last two outputs
  for (std::size_t k = 0; k < K; ++k) {
    const std::size_t at = i + k * N;
    x1[k] = hn::LoadU(d, state + at);
    x2[k] = hn::LoadU(d, state + n + at);
    a1[k] = hn::LoadU(d, state + 2 * n + at);
    a2[k] = hn::LoadU(d, state + 3 * n + at);
    b1[k] = hn::LoadU(d, state + 4 * n + at);
    b2[k] = hn::LoadU(d, state + 5 * n + at);
  }
  for (std::size_t p = count; p-- > 0;) {
    if (p >= kAhead) {
      hwy::Prefetch(x[p - kAhead] + i);
      if (y) {
        hwy::Prefetch(causal[p - kAhead] + i);
        hwy::Prefetch(y[p - kAhead] + i);
      }
    }
    for (std::size_t k = 0; k < K; ++k) {
      const auto a = hn::MulAdd(s0.d1, a1[k], hn::MulAdd(s0.d2, a2[k], hn::MulAdd(s0.m2, x2[k], hn::Mul(s0.m1, x1[k]))));
      const auto b = hn::MulAdd(s1.d1, b1[k], hn::MulAdd(s1.d2, b2[k], hn::MulAdd(s1.m2, x2[k], hn::Mul(s1.m1, x1[k]))));
      x2[k] = x1[k];
      x1[k] = hn::LoadU(d, x[p] + i + k * N);
      a2[k] = a1[k];
      a1[k] = a;
      b2[k] = b1[k];
      b1[k] = b;
      if (y) store_out(d, hn::Add(hn::LoadU(d, causal[p] + i + k * N), hn::Add(a, b)), y[p] + i + k * N);
    }
  }
  for (std::size_t k = 0; k < K; ++k) {
    const std::size_t at = i + k * N;
    hn::StoreU(x1[k], d, state + at);
    hn::StoreU(x2[k], d, state + n + at);
    hn::StoreU(a1[k], d, state + 2 * n + at);
    hn::StoreU(a2[k], d, state + 3 * n + at);
    hn::StoreU(b1[k], d, state + 4 * n + at);
    hn::StoreU(b2[k], d, state + 5 * n + at);
  }
}

// f(d, K, i) over [0, n): blocks of kChains vectors, then single vectors, then single lanes.
template <class F>
HWY_INLINE void for_line_blocks(std::size_t n, F&& f) {
  const hn::ScalableTag<float> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + kChains * N <= n; i += kChains * N) f(d, std::integral_constant<std::size_t, kChains>{}, i);
  for (; i + N <= n; i += N) f(d, std::integral_constant<std::size_t, 1>{}, i);
  const hn::CappedTag<float, 1> d1;
  for (; i < n; ++i) f(d1, std::integral_constant<std::size_t, 1>{}, i);
}

void CausalLines(const float* const* x, float* const* y, std::size_t count, std::size_t n, float* state,
                 const RecursiveGaussian& f) {
  for_line_blocks(n, [&](auto d, auto k, std::size_t i) {
    causal_block<decltype(k)::value>(d, x, y, count, n, state, f, i);
  });
}

template <class Out>
void AnticausalLines(const float* const* x, const float* const* causal, Out* const* y, std::size_t count,
                     std::size_t n, float* state, const RecursiveGaussian& f) {
  for_line_blocks(n, [&](auto d, auto k, std::size_t i) {
    anticausal_block<decltype(k)::value>(d, x, causal, y, count, n, state, f, i);
  });
}
void AnticausalLinesF32(const float* const* x, const float* const* causal, float* const* y, std::size_t count,
                        std::size_t n, float* state, const RecursiveGaussian& f) {
  AnticausalLines(x, causal, y, count, n, state, f);
}
void AnticausalLinesU8(const float* const* x, const float* const* causal, std::uint8_t* const* y,
                       std::size_t count, std::size_t n, float* state, const RecursiveGaussian& f) {
  AnticausalLines(x, causal, y, count, n, state, f);
}

}  // namespace ks::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ks::cpu::simd {

HWY_EXPORT(CausalLines);
HWY_EXPORT(AnticausalLinesF32);
HWY_EXPORT(AnticausalLinesU8);

void start_causal(float* state, const float* first, std::size_t n, const RecursiveGaussian& f) {
  for (std::size_t i = 0; i < n; ++i) {
    state[i] = first[i];
    for (int k = 0; k < 2; ++k)
      state[(1 + 2 * k) * n + i] = state[(2 + 2 * k) * n + i] = f.section[k].causal_gain * first[i];
  }
}
void start_anticausal(float* state, const float* first, std::size_t n, const RecursiveGaussian& f) {
  for (std::size_t i = 0; i < n; ++i) {
    state[i] = state[n + i] = first[i];
    for (int k = 0; k < 2; ++k)
      state[(2 + 2 * k) * n + i] = state[(3 + 2 * k) * n + i] = f.section[k].anticausal_gain * first[i];
  }
}

void causal_lines(const float* const* x, float* const* y, std::size_t count, std::size_t n, float* state,
                  const RecursiveGaussian& f) {
  HWY_DYNAMIC_DISPATCH(CausalLines)(x, y, count, n, state, f);
}
void anticausal_lines(const float* const* x, const float* const* causal, float* const* y, std::size_t count,
                      std::size_t n, float* state, const RecursiveGaussian& f) {
  HWY_DYNAMIC_DISPATCH(AnticausalLinesF32)(x, causal, y, count, n, state, f);
}
void anticausal_lines(const float* const* x, const float* const* causal, std::uint8_t* const* y,
                      std::size_t count, std::size_t n, float* state, const RecursiveGaussian& f) {
  HWY_DYNAMIC_DISPATCH(AnticausalLinesU8)(x, causal, y, count, n, state, f);
}

}  // namespace ks::cpu::simd
#endif  // HWY_ONCE
