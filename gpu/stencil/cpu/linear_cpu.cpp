#include "stencil/cpu/linear_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "stencil/cpu/finish_u8.hpp"
#include "stencil/cpu/linear_rows.hpp"
#include "stencil/cpu/round_divider.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cpu {

namespace {

template <class Pix>
constexpr bool kIsU8 = std::is_same_v<Pix, std::uint8_t>;

// U8 sums are exact int32 (integer weights); F32 sums are double (the CPU reference's precision).
template <class Pix>
using AccOf = std::conditional_t<kIsU8<Pix>, std::int32_t, double>;

// The constant border in the image's element type; a U8 image reads the value rounded and saturated, so that
// the integer sums stay exact.
template <class Pix>
Pix border_value_of(const StencilPlan& plan) {
  if constexpr (kIsU8<Pix>) {
    return saturate_u8(plan.border_value);
  } else {
    return plan.border_value;
  }
}

// Output rows are finished a block of elements at a time so that the sums stay in L1 between the column pass
// and the final arithmetic.
constexpr std::size_t kBlock = 2048;

// Rows are split into chunks over the pool; each chunk makes its own state (rings of rows, buffers), and for
// each of its rows calls state.prepare(y), then finish(state, y, begin, n) for blocks covering the row's
// elements.
template <class MakeState, class Finish>
void for_each_block(const Image& in, ThreadPool& pool, MakeState&& make_chunk_state, Finish&& finish) {
  const std::size_t row_elements = std::size_t(in.width()) * std::size_t(in.channels());
  pool.parallel_for(0, in.height(), [&](long long y0, long long y1) {
    auto state = make_chunk_state();
    for (int y = int(y0); y < int(y1); ++y) {
      state.prepare(y);
      for (std::size_t b = 0; b < row_elements; b += kBlock)
        finish(state, y, b, std::min(kBlock, row_elements - b));
    }
  });
}

template <class Pix>
void linear(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  using Acc = AccOf<Pix>;
  struct State {
    LinearRows<Pix, Acc> rows;
    std::vector<Acc> sum = std::vector<Acc>(kBlock);
    void prepare(int y) { rows.prepare(y); }
  };
  const RoundDivider divide(plan.a.divisor);
  for_each_block(
      in, pool,
      [&] { return State{LinearRows<Pix, Acc>(plan.a, in, plan.border, border_value_of<Pix>(plan))}; },
      [&](State& s, int y, std::size_t b, std::size_t n) {
        s.rows.sums(b, b + n, s.sum.data());
        Pix* dst = out.row<Pix>(y) + b;
        if constexpr (kIsU8<Pix>) {
          divide.apply(s.sum.data(), dst, n);
        } else {
          for_lanes(n, [&](std::size_t i) { dst[i] = float(s.sum[i]); });
        }
      });
}

template <class Pix>
void gradient_magnitude(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  using Acc = AccOf<Pix>;
  struct State {
    LinearRows<Pix, Acc> a, b;
    std::vector<Acc> sa = std::vector<Acc>(kBlock), sb = std::vector<Acc>(kBlock);
    void prepare(int y) {
      a.prepare(y);
      b.prepare(y);
    }
  };
  const Pix bv = border_value_of<Pix>(plan);
  struct NoTable {};
  const std::conditional_t<kIsU8<Pix>, MagnitudeU8, NoTable> magnitude{};  // U8 only; shared, read-only
  for_each_block(
      in, pool,
      [&] {
        return State{LinearRows<Pix, Acc>(plan.a, in, plan.border, bv),
                     LinearRows<Pix, Acc>(plan.b, in, plan.border, bv)};
      },
      [&](State& s, int y, std::size_t b, std::size_t n) {
        s.a.sums(b, b + n, s.sa.data());
        s.b.sums(b, b + n, s.sb.data());
        Pix* dst = out.row<Pix>(y) + b;
        if constexpr (kIsU8<Pix>) {
          magnitude.apply(s.sa.data(), s.sb.data(), dst, n);
        } else {
          // Scalar: sqrt's errno path keeps g++ from vectorizing (no -fno-math-errno here).
          for (std::size_t i = 0; i < n; ++i)
            dst[i] = float(std::sqrt(s.sa[i] * s.sa[i] + s.sb[i] * s.sb[i]));
        }
      });
}

template <class Pix>
void unsharp_mask(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  using Acc = AccOf<Pix>;
  struct State {
    LinearRows<Pix, Acc> rows;
    std::vector<Acc> sum = std::vector<Acc>(kBlock);
    void prepare(int y) { rows.prepare(y); }
  };
  const std::int32_t divisor = plan.a.divisor;
  const float amount = plan.amount;
  for_each_block(
      in, pool,
      [&] { return State{LinearRows<Pix, Acc>(plan.a, in, plan.border, border_value_of<Pix>(plan))}; },
      [&](State& s, int y, std::size_t b, std::size_t n) {
        s.rows.sums(b, b + n, s.sum.data());
        const Pix* src = in.row<Pix>(y) + b;
        Pix* dst = out.row<Pix>(y) + b;
        if constexpr (kIsU8<Pix>) {
          unsharp_u8_row(src, s.sum.data(), dst, n, divisor, amount);
        } else {
          const double a = amount;
          for_lanes(n, [&](std::size_t i) {
            const double v = src[i];
            dst[i] = float(v + a * (v - s.sum[i]));
          });
        }
      });
}

}  // namespace

void run_linear(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  if (in.type() == ElemType::U8)
    linear<std::uint8_t>(plan, in, out, pool);
  else
    linear<float>(plan, in, out, pool);
}

void run_gradient_magnitude(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  if (in.type() == ElemType::U8)
    gradient_magnitude<std::uint8_t>(plan, in, out, pool);
  else
    gradient_magnitude<float>(plan, in, out, pool);
}

void run_unsharp_mask(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  if (in.type() == ElemType::U8)
    unsharp_mask<std::uint8_t>(plan, in, out, pool);
  else
    unsharp_mask<float>(plan, in, out, pool);
}

}  // namespace ks::cpu
