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

// Bit-packed Life: 64 cells per 64-bit word, bit j of word w in a row is cell 64*w + j (so, little-endian, bit j
// of 32-bit word m is cell 32*m + j). The rule is applied to 64 cells at once with a bit-sliced adder and a
// multiplexer tree over the bits of the total; the masks below are the rule table spread to all-ones / all-zeros words, so the tree needs no branches and no table lookups.
struct LifeMasks {
  std::uint64_t low[16];   // [cell * 8 + total] for totals 0..7
  std::uint64_t high[4];   // [cell * 2 + total - 8] for totals 8 and 9
};

// The word arithmetic below is written for any unsigned word: 64-bit words in the one-step kernels and on the
// CPU, 32-bit words in the multistep kernel (whose warps exchange neighbour bits by 32-bit shuffles).

// Bits of `b` where sel is set, bits of `a` elsewhere.
template <class Word>
KS_HD Word mux(Word sel, Word a, Word b) {
  return (a & ~sel) | (b & sel);
}

// Sum of three words bit by bit (a full adder on one lane per bit): bit 0 of each lane's sum in s0, bit 1 in s1.
template <class Word>
KS_HD void add3(Word a, Word b, Word c, Word& s0, Word& s1) {
  const Word ab = a ^ b;
  s0 = ab ^ c;
  s1 = (a & b) | (c & ab);
}

// The horizontal 3-sum of a row at word `c`: each cell plus its west and east neighbours. `west_in` is the bit
// that enters at bit 0 from the west, `east_in` the bits that enter from the east, already at their positions.
template <class Word>
struct RowSumOf {
  Word s0, s1;
};
using RowSum = RowSumOf<std::uint64_t>;
template <class Word>
KS_HD RowSumOf<Word> row_sum(Word c, Word west_in, Word east_in) {
  RowSumOf<Word> r;
  add3<Word>((c << 1) | west_in, c, (c >> 1) | east_in, r.s0, r.s1);
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

// The 3x3 totals (0..9) of a word's cells in four bit planes, from the row sums above, at and below it.
template <class Word>
struct TotalPlanes {
  Word t0, t1, t2, t3;  // weights 1, 2, 4, 8; t3 only for totals 8 and 9 (then t1 = t2 = 0)
};
template <class Word>
KS_HD TotalPlanes<Word> column_total(const RowSumOf<Word>& above, const RowSumOf<Word>& mid,
                                     const RowSumOf<Word>& below) {
  Word t0, k0, p, q;
  add3<Word>(above.s0, mid.s0, below.s0, t0, k0);  // weight 1 -> t0, carry k0 of weight 2
  add3<Word>(above.s1, mid.s1, below.s1, p, q);    // weight 2 -> p, carry q of weight 4
  const Word k1 = p & k0;                          // weight 4
  return {t0, p ^ k0, q ^ k1, q & k1};
}

// Next state of the cells of `cell` from the row sums above, at and below it.
template <class Word>
KS_HD Word life_word_next(Word cell, const RowSumOf<Word>& above, const RowSumOf<Word>& mid,
                          const RowSumOf<Word>& below, const LifeMasks& m) {
  const TotalPlanes<Word> t = column_total(above, mid, below);
  // Totals 0..7: the tree over t0, t1, t2 for each cell state.
  Word a[8];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = 0; i < 8; ++i) a[i] = mux<Word>(t.t0, Word(m.low[2 * i]), Word(m.low[2 * i + 1]));
  const Word b0 = mux(t.t1, a[0], a[1]), b1 = mux(t.t1, a[2], a[3]);
  const Word b2 = mux(t.t1, a[4], a[5]), b3 = mux(t.t1, a[6], a[7]);
  const Word low = mux(cell, mux(t.t2, b0, b1), mux(t.t2, b2, b3));
  const Word high = mux(cell, mux<Word>(t.t0, Word(m.high[0]), Word(m.high[1])),
                        mux<Word>(t.t0, Word(m.high[2]), Word(m.high[3])));
  return mux(t.t3, low, high);
}

// The same for Conway's rule B3/S23 alone, in a few operations: with the total counting the cell itself, a cell
// lives next when the total is 3, or 4 and it is alive. Totals 8 and 9 have t1 = t2 = 0, so t3 is not needed.
template <class Word>
KS_HD Word conway_word_next(Word cell, const RowSumOf<Word>& above, const RowSumOf<Word>& mid,
                            const RowSumOf<Word>& below) {
  const TotalPlanes<Word> t = column_total(above, mid, below);
  return (t.t0 & t.t1 & ~t.t2) | (cell & ~(t.t0 | t.t1) & t.t2);
}

// The valid bits of a row's last word.
KS_HD std::uint64_t last_word_mask(int last_bit) {
  return last_bit == 63 ? ~std::uint64_t(0) : (std::uint64_t(2) << last_bit) - 1;
}

KS_HD int words_per_row(int width) { return (width + 63) / 64; }

}  // namespace ks::sim
