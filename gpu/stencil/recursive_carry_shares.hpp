#pragma once
// The two-read form of the block-parallel recursive Gaussian (Nehab et al. 2011, stencil/recursive_tiles.hpp):
// the columns' summaries without filtering the rows again.
//
// A tile's rows filtered with their carries are its rows filtered from zero carries plus, at each position, every
// carry component times the tile's fixed response to it (the recursion is linear). A column summary is a weighted
// sum down the rows, so it is the zero-carry rows' column summary plus, for each carry component, the response at
// the column times the same weighted sum of that component down the rows. The first kernel can then filter each
// tile's rows once from zero (their end states are the rows' summaries) and sum their columns; once the rows'
// carries are known, the columns' summaries follow from 11 sums a tile row, with no third read of the image.
//
// Shared by the CUDA kernels (cuda/recursive_gaussian.cu) and the CPU test (tests/cpu/test_recursive_tiles.cpp).
#include <math.h>

#include "core/hd.hpp"
#include "stencil/recursive_gaussian.hpp"
#include "stencil/recursive_tiles.hpp"

namespace ks {

// The 11 numbers a row's carries hold: causal xp a1 a2 b1 b2, then anti-causal x1 x2 a1 a2 b1 b2.
inline constexpr int kCarryComponents = 11;
KS_HD void carry_components(const CausalLine& c, const AnticausalLine& a, float (&k)[kCarryComponents]) {
  k[0] = c.xp, k[1] = c.s.a1, k[2] = c.s.a2, k[3] = c.s.b1, k[4] = c.s.b2;
  k[5] = a.x1, k[6] = a.x2, k[7] = a.s.a1, k[8] = a.s.a2, k[9] = a.s.b1, k[10] = a.s.b2;
}

// [component][i]: the filtered output at position i of a `length`-sample tile with no samples of its own whose
// carries are all zero but that component, which is 1.
struct CarryResponses {
  float at[kCarryComponents][kMaxSummaryTile];
};

// In double, by the walk tile_transfer takes (run_without_input), and for the same reason.
inline CarryResponses carry_responses(const RecursiveGaussian& f, int length) {
  CarryResponses r{};
  for (int k = 0; k < kCarryComponents; ++k) {
    double unit[kCarryComponents] = {}, out[kMaxSummaryTile] = {};
    unit[k] = 1;
    for (int section = 0; section < 2; ++section) {
      const RecursiveSection& s = f.section[section];
      // causal: x[-1] and this section's (y1, y2); anti-causal: x[length], x[length + 1] and its (y1, y2)
      double y1 = unit[1 + 2 * section], y2 = unit[2 + 2 * section];
      run_without_input(s, true, length, y1, y2, unit[0], 0, [&](int k, double y) { out[k] += y; });
      y1 = unit[7 + 2 * section], y2 = unit[8 + 2 * section];
      run_without_input(s, false, length, y1, y2, unit[5], unit[6],
                        [&](int k, double y) { out[length - 1 - k] += y; });
    }
    for (int i = 0; i < length; ++i) r.at[k][i] = float(out[i]);
  }
  return r;
}

// What a tile's column summaries take from its rows' carries: for each carry component, its weighted sums down
// the tile's `rows` rows (the column summaries' weights), and the component's value on the rows the summaries
// keep as samples (causal: the last row; anti-causal: the first two).
struct CarryColumnShares {
  LineCarry causal[kCarryComponents], anticausal[kCarryComponents];
  float last[kCarryComponents], first[kCarryComponents], second[kCarryComponents];
};

// Carry component c's share of a tile's column summaries in one direction, from its values down the tile's `rows`
// rows (value(r)): its weighted sums (the column summaries' weights) and the rows the summaries keep as samples.
// kMax as for weighted_summaries (a full tile's with the weights as the multiply-adds' constant operands). The
// GPU runs the 22 pairs of component and direction on as many threads; carry_column_shares runs them all.
template <bool kAnticausal, int kMax = 0, class Value>
KS_HD void set_component_share(const SummaryWeights& w, int rows, int c, const Value& value,
                               CarryColumnShares& shares) {
  LineCarry s;
  KS_RECURSIVE_UNROLL
  for (int r = 0; r < (kMax > 0 ? kMax : rows); ++r)
    if (kMax == 0 || r < rows) {
      if (kAnticausal)
        add_anticausal_share(w, r, value(r), s);
      else
        add_causal_share(w, rows, r, value(r), s);
    }
  if (kAnticausal) {
    shares.anticausal[c] = s;
    shares.first[c] = value(0);
    shares.second[c] = rows > 1 ? value(1) : 0.f;
  } else {
    shares.causal[c] = s;
    shares.last[c] = value(rows - 1);
  }
}
// Every component's share: carry(r, c) is component c (carry_components' order) of row r's carries.
template <class Carry>
KS_HD CarryColumnShares carry_column_shares(const SummaryWeights& w, int rows, const Carry& carry) {
  CarryColumnShares shares;
  for (int c = 0; c < kCarryComponents; ++c) {
    const auto value = [&](int r) { return carry(r, c); };
    set_component_share<false>(w, rows, c, value, shares);
    set_component_share<true>(w, rows, c, value, shares);
  }
  return shares;
}

// A tile column's responses to the 11 carry components (CarryResponses at one position), held in registers by
// the thread that completes the column.
struct ColumnResponse {
  float at[kCarryComponents];
};
KS_HD ColumnResponse column_response(const CarryResponses& responses, int i) {
  ColumnResponse r;
  for (int c = 0; c < kCarryComponents; ++c) r.at[c] = responses.at[c][i];
  return r;
}

// A sample of a row filtered from zero carries (y) completed with that row's carries.
KS_HD float add_row_carries_response(const ColumnResponse& response, const CausalLine& causal,
                                     const AnticausalLine& anticausal, float y) {
  float k[kCarryComponents];
  carry_components(causal, anticausal, k);
  for (int c = 0; c < kCarryComponents; ++c) y = fmaf(response.at[c], k[c], y);
  return y;
}

// A column's summaries from the zero-carry rows' column summaries (causal, anticausal: what weighted_summaries
// gives down the column of rows filtered from zero carries) and the carries' shares.
KS_HD void add_carry_shares(const ColumnResponse& response, int rows, const CarryColumnShares& shares,
                            CausalLine& causal, AnticausalLine& anticausal) {
  for (int c = 0; c < kCarryComponents; ++c) {
    const float r = response.at[c];
    LineCarry& cs = causal.s;
    LineCarry& as = anticausal.s;
    cs.a1 = fmaf(r, shares.causal[c].a1, cs.a1), cs.a2 = fmaf(r, shares.causal[c].a2, cs.a2);
    cs.b1 = fmaf(r, shares.causal[c].b1, cs.b1), cs.b2 = fmaf(r, shares.causal[c].b2, cs.b2);
    as.a1 = fmaf(r, shares.anticausal[c].a1, as.a1), as.a2 = fmaf(r, shares.anticausal[c].a2, as.a2);
    as.b1 = fmaf(r, shares.anticausal[c].b1, as.b1), as.b2 = fmaf(r, shares.anticausal[c].b2, as.b2);
    causal.xp = fmaf(r, shares.last[c], causal.xp);
    anticausal.x1 = fmaf(r, shares.first[c], anticausal.x1);
    if (rows > 1) anticausal.x2 = fmaf(r, shares.second[c], anticausal.x2);
  }
}

}  // namespace ks
