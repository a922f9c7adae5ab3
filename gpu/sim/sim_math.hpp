#pragma once
// Per-cell arithmetic of the three simulations, shared verbatim by the CPU references and the CUDA kernels.
// Float updates use separately rounded operations (add_rn, mul_rn) in one fixed order: nvcc would otherwise
// contract a*b+c into FMAs, and the CPU and every CUDA variant give bit-identical states after any number of steps.
#include <cstdint>

#include "core/floor_mod.hpp"
#include "core/hd.hpp"
#include "core/rounded_math.hpp"  // add_rn, mul_rn

namespace ks::sim {

// ---- boundaries of heat and Gray-Scott ----------------------------------------------------------------------

enum class FieldBoundary : int {
  Fixed,      // cells outside hold a constant value (Dirichlet)
  Periodic,   // the grid wraps around (a torus)
  Insulated,  // no flux across the edge: the outside mirrors the edge cell (Neumann, zero gradient)
};

// Index to read for position p of a line of n cells, or -1 for "the fixed value".
KS_HD int field_index(int p, int n, FieldBoundary b) {
  if (p >= 0 && p < n) return p;
  switch (b) {
    case FieldBoundary::Periodic: return floor_mod(p, n);
    case FieldBoundary::Insulated: return p < 0 ? 0 : n - 1;
    case FieldBoundary::Fixed:
    default: return -1;
  }
}

// The four neighbours of a cell summed in one fixed order, (west + east) + (north + south): every backend
// rounds the same way.
KS_HD float neighbour_sum(float west, float east, float north, float south) {
  return add_rn(add_rn(west, east), add_rn(north, south));
}

// 5-point Laplacian with unit grid spacing: sum of the neighbours - 4 * centre (4 * c is exact in float).
KS_HD float laplacian(float centre, float sum) { return add_rn(sum, -4.0f * centre); }

// Explicit Euler step of du/dt = alpha * laplacian(u); r = alpha * dt (stable for r <= 1/4).
struct HeatCoefficients {
  float r = 0;
};
KS_HD float heat_update(float u, float sum, const HeatCoefficients& c) {
  return add_rn(u, mul_rn(c.r, laplacian(u, sum)));
}

// Gray-Scott reaction-diffusion (Pearson 1993):
//   du/dt = Du lap(u) - u v^2 + F (1 - u)
//   dv/dt = Dv lap(v) + u v^2 - (F + k) v
struct GrayScottCoefficients {
  float du = 0, dv = 0, feed = 0, feed_kill = 0, dt = 0;  // feed_kill = F + k, rounded once on the host
};
KS_HD void grayscott_update(float u, float v, float sum_u, float sum_v, const GrayScottCoefficients& c, float& u_out,
                            float& v_out) {
  const float uvv = mul_rn(mul_rn(u, v), v);
  const float rate_u = add_rn(add_rn(mul_rn(c.du, laplacian(u, sum_u)), -uvv), mul_rn(c.feed, add_rn(1.0f, -u)));
  const float rate_v = add_rn(add_rn(mul_rn(c.dv, laplacian(v, sum_v)), uvv), -mul_rn(c.feed_kill, v));
  u_out = add_rn(u, mul_rn(c.dt, rate_u));
  v_out = add_rn(v, mul_rn(c.dt, rate_v));
}

// ---- Life -----------------------------------------------------------------------------------------------------

// Byte states hold 0 (dead) or 255 (alive): the state is its own display image. Bit 0 tells alive from dead.
inline constexpr std::uint8_t kAlive = 255;

// next[cell][total]: total counts the 3x3 window including the cell itself (0..9), so that the bit-sliced
// adder can sum whole columns; for a live cell the neighbour count is total - 1.
struct LifeTable {
  std::uint16_t next[2] = {0, 0};  // bit `total` of next[cell]
};

KS_HD std::uint8_t life_cell_next(std::uint8_t cell, int total, const LifeTable& t) {
  const int alive = cell & 1;
  return ((t.next[alive] >> total) & 1) ? kAlive : 0;
}

// Bit-packed Life: 64 cells per 64-bit word, bit j of word w in a row is cell 64*w + j. The rule is applied to
// 64 cells at once with a bit-sliced adder and a multiplexer tree over the bits of the total; the masks below
// are the rule table spread to all-ones / all-zeros words, so the tree needs no branches and no table lookups.
struct LifeMasks {
  std::uint64_t low[16];   // [cell * 8 + total] for totals 0..7
  std::uint64_t high[4];   // [cell * 2 + total - 8] for totals 8 and 9
};

// Bits of `b` where sel is set, bits of `a` elsewhere.
KS_HD std::uint64_t mux(std::uint64_t sel, std::uint64_t a, std::uint64_t b) { return (a & ~sel) | (b & sel); }

// Sum of three words bit by bit (a full adder on 64 lanes): bit 0 of each lane's sum in s0, bit 1 in s1.
KS_HD void add3(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t& s0, std::uint64_t& s1) {
  const std::uint64_t ab = a ^ b;
  s0 = ab ^ c;
  s1 = (a & b) | (c & ab);
}

// The horizontal 3-sum of a row at word `c`: each cell plus its west and east neighbours. `west_in` is the bit
// that enters at bit 0 from the west, `east_in` the bits that enter from the east, already at their positions.
struct RowSum {
  std::uint64_t s0, s1;
};
KS_HD RowSum row_sum(std::uint64_t c, std::uint64_t west_in, std::uint64_t east_in) {
  RowSum r;
  add3((c << 1) | west_in, c, (c >> 1) | east_in, r.s0, r.s1);
  return r;
}

// Where the bits of a word's west and east neighbours come from. `last_bit` is the position of the row's last
// cell in its last word ((width - 1) % 64); the bits above it are padding and always zero in a state. On a
// torus, cell width-1 is the west neighbour of cell 0 and cell 0 the east neighbour of cell width-1, so the
// first and last words take their outside bits from each other rather than from a word boundary.
KS_HD std::uint64_t west_bit(std::uint64_t left_word, bool first, bool torus, int last_bit) {
  if (!first) return left_word >> 63;
  return torus ? (left_word >> last_bit) & 1u : 0u;
}
KS_HD std::uint64_t east_bits(std::uint64_t right_word, bool last, bool torus, int last_bit) {
  if (!last) return right_word << 63;
  return torus ? (right_word & 1u) << last_bit : 0u;
}

// Next state of the 64 cells of `cell` from the row sums above, at and below it.
KS_HD std::uint64_t life_word_next(std::uint64_t cell, const RowSum& above, const RowSum& mid, const RowSum& below,
                                   const LifeMasks& m) {
  // Column of three 2-bit numbers -> total 0..9 in four bit planes t0..t3.
  std::uint64_t t0, k0, p, q;
  add3(above.s0, mid.s0, below.s0, t0, k0);  // weight 1 -> t0, carry k0 of weight 2
  add3(above.s1, mid.s1, below.s1, p, q);    // weight 2 -> p, carry q of weight 4
  const std::uint64_t t1 = p ^ k0;
  const std::uint64_t k1 = p & k0;           // weight 4
  const std::uint64_t t2 = q ^ k1;
  const std::uint64_t t3 = q & k1;           // weight 8: totals 8 and 9 (then t1 = t2 = 0)
  // Totals 0..7: the tree over t0, t1, t2 for each cell state.
  std::uint64_t a[8];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = 0; i < 8; ++i) a[i] = mux(t0, m.low[2 * i], m.low[2 * i + 1]);
  const std::uint64_t b0 = mux(t1, a[0], a[1]), b1 = mux(t1, a[2], a[3]);
  const std::uint64_t b2 = mux(t1, a[4], a[5]), b3 = mux(t1, a[6], a[7]);
  const std::uint64_t low = mux(cell, mux(t2, b0, b1), mux(t2, b2, b3));
  const std::uint64_t high = mux(cell, mux(t0, m.high[0], m.high[1]), mux(t0, m.high[2], m.high[3]));
  return mux(t3, low, high);
}

// The valid bits of a row's last word.
KS_HD std::uint64_t last_word_mask(int last_bit) {
  return last_bit == 63 ? ~std::uint64_t(0) : (std::uint64_t(2) << last_bit) - 1;
}

KS_HD int words_per_row(int width) { return (width + 63) / 64; }

}  // namespace ks::sim
