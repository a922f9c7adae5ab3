// Highway compiles this file once per instruction set (foreach_target.h re-includes it); the functions at the
// end dispatch to the best one the CPU supports.
// clang-format off: foreach_target.h must follow HWY_TARGET_INCLUDE and come before highway.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "stencil/cpu/simd/recursive_lines.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
// clang-format on
#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "stencil/cpu/simd/recursive_lines.hpp"

HWY_BEFORE_NAMESPACE();
namespace ks::cpu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Vectors of lines run together: each step of a line waits for the one before (a multiply-add's latency), so
// four independent lines per lane keep the FMA units busy.
constexpr std::size_t kChains = 4;

// The lines [i, i + K * N) through the causal pass (D: N lanes; K vectors).
template <std::size_t K, class D>
HWY_INLINE void causal_block(D d, const float* const* x, float* const* w, std::size_t count, std::size_t n,
                             float* state, const RecursiveGaussian& f, float* acc, std::size_t i) {
  const std::size_t N = hn::Lanes(d);
  const auto b = hn::Set(d, f.b), a1 = hn::Set(d, f.a1), a2 = hn::Set(d, f.a2), a3 = hn::Set(d, f.a3);
  hn::Vec<D> w1[K], w2[K], w3[K], s0[K], s1[K], s2[K];
  for (std::size_t k = 0; k < K; ++k) {
    w1[k] = hn::LoadU(d, state + i + k * N);
    w2[k] = hn::LoadU(d, state + n + i + k * N);
    w3[k] = hn::LoadU(d, state + 2 * n + i + k * N);
    s0[k] = s1[k] = s2[k] = hn::Zero(d);
    if (acc) {
      s0[k] = hn::LoadU(d, acc + i + k * N);
      s1[k] = hn::LoadU(d, acc + n + i + k * N);
      s2[k] = hn::LoadU(d, acc + 2 * n + i + k * N);
    }
  }
  for (std::size_t p = 0; p < count; ++p) {
    for (std::size_t k = 0; k < K; ++k) {
      // The newest state last, so that only one multiply-add waits for the step before.
      const auto t = hn::MulAdd(a3, w3[k], hn::MulAdd(a2, w2[k], hn::Mul(b, hn::LoadU(d, x[p] + i + k * N))));
      const auto v = hn::MulAdd(a1, w1[k], t);
      w3[k] = w2[k];
      w2[k] = w1[k];
      w1[k] = v;
      if (w) hn::StoreU(v, d, w[p] + i + k * N);
      if (acc) {
        s0[k] = hn::MulAdd(hn::Set(d, f.tail[p]), v, s0[k]);
        if (p >= 1) s1[k] = hn::MulAdd(hn::Set(d, f.tail[p - 1]), v, s1[k]);
        if (p >= 2) s2[k] = hn::MulAdd(hn::Set(d, f.tail[p - 2]), v, s2[k]);
      }
    }
  }
  for (std::size_t k = 0; k < K; ++k) {
    hn::StoreU(w1[k], d, state + i + k * N);
    hn::StoreU(w2[k], d, state + n + i + k * N);
    hn::StoreU(w3[k], d, state + 2 * n + i + k * N);
    if (acc) {
      hn::StoreU(s0[k], d, acc + i + k * N);
      hn::StoreU(s1[k], d, acc + n + i + k * N);
      hn::StoreU(s2[k], d, acc + 2 * n + i + k * N);
    }
  }
}

// v rounded half up and saturated to 0..255, as saturate_u8 does (NaN -> 0).
template <class D>
HWY_INLINE void store_v(D d, hn::Vec<D> v, float* out) {
  hn::StoreU(v, d, out);
}
template <class D>
HWY_INLINE void store_v(D d, hn::Vec<D> v, std::uint8_t* out) {
  const hn::Rebind<std::int32_t, D> di;
  const hn::Rebind<std::uint8_t, D> du8;
  const auto clamped = hn::Min(hn::Max(hn::Add(v, hn::Set(d, 0.5f)), hn::Zero(d)), hn::Set(d, 255.f));
  hn::StoreU(hn::DemoteTo(du8, hn::ConvertTo(di, hn::Floor(clamped))), du8, out);
}

template <std::size_t K, class D, class Out>
HWY_INLINE void anticausal_block(D d, const float* const* w, Out* const* out, std::size_t count, std::size_t n,
                                 const float* state, const RecursiveGaussian& f, std::size_t i) {
  const std::size_t N = hn::Lanes(d);
  const auto b = hn::Set(d, f.b), a1 = hn::Set(d, f.a1), a2 = hn::Set(d, f.a2), a3 = hn::Set(d, f.a3);
  hn::Vec<D> v1[K], v2[K], v3[K];
  for (std::size_t k = 0; k < K; ++k) {
    v1[k] = hn::LoadU(d, state + i + k * N);
    v2[k] = hn::LoadU(d, state + n + i + k * N);
    v3[k] = hn::LoadU(d, state + 2 * n + i + k * N);
  }
  for (std::size_t p = count; p-- > 0;) {
    for (std::size_t k = 0; k < K; ++k) {
      const auto t = hn::MulAdd(a3, v3[k], hn::MulAdd(a2, v2[k], hn::Mul(b, hn::LoadU(d, w[p] + i + k * N))));
      const auto v = hn::MulAdd(a1, v1[k], t);
      v3[k] = v2[k];
      v2[k] = v1[k];
      v1[k] = v;
      store_v(d, v, out[p] + i + k * N);
    }
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

void CausalLines(const float* const* x, float* const* w, std::size_t count, std::size_t n, float* state,
                 const RecursiveGaussian& f, float* acc) {
  for_line_blocks(n, [&](auto d, auto k, std::size_t i) {
    causal_block<decltype(k)::value>(d, x, w, count, n, state, f, acc, i);
  });
}

void AnticausalLinesF32(const float* const* w, float* const* v, std::size_t count, std::size_t n,
                        const float* state, const RecursiveGaussian& f) {
  for_line_blocks(n, [&](auto d, auto k, std::size_t i) {
    anticausal_block<decltype(k)::value>(d, w, v, count, n, state, f, i);
  });
}

void AnticausalLinesU8(const float* const* w, std::uint8_t* const* v, std::size_t count, std::size_t n,
                       const float* state, const RecursiveGaussian& f) {
  for_line_blocks(n, [&](auto d, auto k, std::size_t i) {
    anticausal_block<decltype(k)::value>(d, w, v, count, n, state, f, i);
  });
}

}  // namespace ks::cpu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ks::cpu::simd {

HWY_EXPORT(CausalLines);
HWY_EXPORT(AnticausalLinesF32);
HWY_EXPORT(AnticausalLinesU8);

void causal_lines(const float* const* x, float* const* w, std::size_t count, std::size_t n, float* state,
                  const RecursiveGaussian& f, float* acc) {
  HWY_DYNAMIC_DISPATCH(CausalLines)(x, w, count, n, state, f, acc);
}
void anticausal_lines(const float* const* w, float* const* v, std::size_t count, std::size_t n, const float* state,
                      const RecursiveGaussian& f) {
  HWY_DYNAMIC_DISPATCH(AnticausalLinesF32)(w, v, count, n, state, f);
}
void anticausal_lines(const float* const* w, std::uint8_t* const* v, std::size_t count, std::size_t n,
                      const float* state, const RecursiveGaussian& f) {
  HWY_DYNAMIC_DISPATCH(AnticausalLinesU8)(w, v, count, n, state, f);
}

}  // namespace ks::cpu::simd
#endif  // HWY_ONCE
