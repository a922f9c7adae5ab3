#include "stencil/cpu/linear_cpu.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "stencil/cpu/chunk_rows.hpp"
#include "stencil/cpu/linear_rows.hpp"
#include "stencil/cpu/reference_arithmetic.hpp"
#include "stencil/cpu/round_divider.hpp"
#include "stencil/cpu/simd/simd_arithmetic.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cpu {

namespace {

template <class Pix>
constexpr bool kIsU8 = std::is_same_v<Pix, std::uint8_t>;

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
// each group of up to `group` consecutive rows calls state.prepare(y, rows), then finish(state, y, rows,
// begin, n) for blocks covering the rows' elements.
template <class MakeState, class Finish>
void for_each_block(const Image& in, ThreadPool& pool, int group, MakeState&& make_chunk_state,
                    Finish&& finish) {
  const std::size_t row_elements = std::size_t(in.width()) * std::size_t(in.channels());
  const auto chunk = [&](long long y0, long long y1) {
    auto state = make_chunk_state();
    for (int y = int(y0); y < int(y1); y += group) {
      const int rows = std::min(group, int(y1) - y);
      state.prepare(y, rows);
      for (std::size_t b = 0; b < row_elements; b += kBlock)
        finish(state, y, rows, b, std::min(kBlock, row_elements - b));
    }
  };
  for_row_chunks(pool, in.height(), row_elements, chunk);
}

// A group's window sums, one block of kBlock elements per output row.
template <class Acc, int kGroup>
struct GroupSums {
  std::vector<Acc> data = std::vector<Acc>(std::size_t(kGroup) * kBlock);
  Acc* rows[kGroup];
  GroupSums() {
    for (int r = 0; r < kGroup; ++r) rows[r] = data.data() + std::size_t(r) * kBlock;
  }
  GroupSums(const GroupSums& other) : GroupSums() { data = other.data; }
  GroupSums& operator=(const GroupSums&) = delete;
};

template <class Pix, class Arith>
void linear(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  using Rows = LinearRows<Pix, Arith>;
  using Acc = typename Rows::Acc;
  struct State {
    Rows rows;
    GroupSums<Acc, Rows::kGroup> sum;
    void prepare(int y, int count) { rows.prepare(y, count); }
  };
  const RoundDivider divide(plan.a.divisor);
  for_each_block(
      in, pool, Rows::kGroup,
      [&] {
        return State{Rows(plan.a, in, plan.border, border_value_of<Pix>(plan)), {}};
      },
      [&](State& s, int y, int rows, std::size_t b, std::size_t n) {
        if constexpr (std::is_same_v<Acc, Pix>) {  // F32 summed in float: the sums are the result
          Pix* dst[Rows::kGroup];
          for (int r = 0; r < rows; ++r) dst[r] = out.row<Pix>(y + r) + b;
          s.rows.sums(b, b + n, dst, rows);
        } else {
          s.rows.sums(b, b + n, s.sum.rows, rows);
          for (int r = 0; r < rows; ++r) {
            Pix* dst = out.row<Pix>(y + r) + b;
            if constexpr (kIsU8<Pix>) {
              Arith::divide_u8(divide, s.sum.rows[r], dst, n);
            } else {
              Arith::to_f32(s.sum.rows[r], dst, n);
            }
          }
        }
      });
}

template <class Pix, class Arith>
void gradient_magnitude(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  using Rows = LinearRows<Pix, Arith>;
  using Acc = typename Rows::Acc;
  struct State {
    Rows a, b;
    GroupSums<Acc, Rows::kGroup> sa, sb;
    void prepare(int y, int count) {
      a.prepare(y, count);
      b.prepare(y, count);
    }
  };
  const Pix bv = border_value_of<Pix>(plan);
  struct NoMagnitudeU8 {};
  // U8 only; shared by the threads, read-only.
  const std::conditional_t<kIsU8<Pix>, typename Arith::MagnitudeU8, NoMagnitudeU8> magnitude{};
  for_each_block(
      in, pool, Rows::kGroup,
      [&] {
        return State{Rows(plan.a, in, plan.border, bv), Rows(plan.b, in, plan.border, bv), {}, {}};
      },
      [&](State& s, int y, int rows, std::size_t b, std::size_t n) {
        s.a.sums(b, b + n, s.sa.rows, rows);
        s.b.sums(b, b + n, s.sb.rows, rows);
        for (int r = 0; r < rows; ++r) {
          Pix* dst = out.row<Pix>(y + r) + b;
          if constexpr (kIsU8<Pix>) {
            magnitude.apply(s.sa.rows[r], s.sb.rows[r], dst, n);
          } else {
            Arith::magnitude_f32(s.sa.rows[r], s.sb.rows[r], dst, n);
          }
        }
      });
}

template <class Pix, class Arith>
void unsharp_mask(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  using Rows = LinearRows<Pix, Arith>;
  using Acc = typename Rows::Acc;
  struct State {
    Rows rows;
    GroupSums<Acc, Rows::kGroup> sum;
    void prepare(int y, int count) { rows.prepare(y, count); }
  };
  const std::int32_t divisor = plan.a.divisor;
  const float amount = plan.amount;
  for_each_block(
      in, pool, Rows::kGroup,
      [&] {
        return State{Rows(plan.a, in, plan.border, border_value_of<Pix>(plan)), {}};
      },
      [&](State& s, int y, int rows, std::size_t b, std::size_t n) {
        s.rows.sums(b, b + n, s.sum.rows, rows);
        for (int r = 0; r < rows; ++r) {
          const Pix* src = in.row<Pix>(y + r) + b;
          Pix* dst = out.row<Pix>(y + r) + b;
          if constexpr (kIsU8<Pix>) {
            Arith::unsharp_u8(src, s.sum.rows[r], dst, n, divisor, amount);
          } else {
            Arith::unsharp_f32(src, s.sum.rows[r], dst, n, amount);
          }
        }
      });
}

// f(Pix{}, Arith{}) for the image's element type and the path's arithmetic.
template <class F>
void with_types(const StencilPlan& plan, const Image& in, CpuPath path, F&& f) {
  const bool u8 = in.type() == ElemType::U8;
  if (path == CpuPath::Simd) {
    if (!u8)
      f(float{}, SimdArithmetic{});
    else if (u8_sums_fit_int16(plan))
      f(std::uint8_t{}, SimdArithmetic16{});
    else
      f(std::uint8_t{}, SimdArithmetic{});
  } else {
    u8 ? f(std::uint8_t{}, ReferenceArithmetic{}) : f(float{}, ReferenceArithmetic{});
  }
}

}  // namespace

void run_linear(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool, CpuPath path) {
  with_types(plan, in, path,
             [&](auto pix, auto arith) { linear<decltype(pix), decltype(arith)>(plan, in, out, pool); });
}

void run_gradient_magnitude(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool,
                            CpuPath path) {
  with_types(plan, in, path, [&](auto pix, auto arith) {
    gradient_magnitude<decltype(pix), decltype(arith)>(plan, in, out, pool);
  });
}

void run_unsharp_mask(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool, CpuPath path) {
  with_types(plan, in, path, [&](auto pix, auto arith) {
    unsharp_mask<decltype(pix), decltype(arith)>(plan, in, out, pool);
  });
}

}  // namespace ks::cpu
