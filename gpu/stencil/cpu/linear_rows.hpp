#pragma once
// Window sums of one linear filter, one output row at a time, for the rows of one thread's chunk. `Arith`
// says how a row of taps is summed and in what type (reference_arithmetic.hpp, simd/simd_arithmetic.hpp):
//   Pix = uint8_t, Acc = int32_t or int16_t: integer weights iw (exact sums, the U8 contract; int16 where the
//   SIMD path finds that every sum fits)
//   Pix = float,   Acc = double or float: float weights w summed in double (the F32 contract of the
//   reference) or in float (the SIMD path)
//
// Separable filters take two passes: each source row is filtered horizontally once into a ring of
// 2*ry + kGroup Acc rows, and an output row is the wy-weighted sum of the ring's rows. That is
// (2rx+1)+(2ry+1) taps per pixel instead of (2rx+1)*(2ry+1), and for U8 the integer sum is the same as the
// 2-D one (exact arithmetic). Other filters sum the 2-D window directly over padded source rows. Both read
// the halo from padded rows, so the inner loops never remap.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/image.hpp"
#include "stencil/border.hpp"
#include "stencil/cpu/padded_rows.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::cpu {

template <class Pix, class Arith>
class LinearRows {
 public:
  using Acc = typename Arith::template Acc<Pix>;
  static_assert((std::is_same_v<Pix, std::uint8_t> &&
                 (std::is_same_v<Acc, std::int32_t> || std::is_same_v<Acc, std::int16_t>)) ||
                (std::is_same_v<Pix, float> && std::is_floating_point_v<Acc>));

  // Output rows are summed in groups of up to kGroup consecutive rows: Arith::kRowsPerSweep, 4 on the SIMD
  // path, whose column sweep feeds four output rows from each row it loads (1 on the reference).
  static constexpr int kGroup = Arith::kRowsPerSweep;

  LinearRows(const LinearFilter& f, const Image& in, Border border, Pix border_value)
      : rx_(f.rx),
        ry_(f.ry),
        channels_(in.channels()),
        row_elements_(std::size_t(in.width()) * std::size_t(in.channels())),
        separable_(f.separable.has_value()),
        // Separable: only the row being filtered horizontally needs its padding; 2-D: the windows of a group.
        source_(in, f.rx, border, border_value, separable_ ? 1 : f.height() + kGroup - 1) {
    const std::size_t window_rows = std::size_t(f.height() + kGroup - 1);  // the windows of a group of rows
    if (separable_) {
      wx_ = weights(f.separable->iwx, f.separable->wx);
      wy_ = weights(f.separable->iwy, f.separable->wy);
      passes_.assign(window_rows * row_elements_, Acc(0));
      pass_tags_.assign(window_rows, INT_MIN);
      pass_taps_.resize(std::size_t(f.width()));
      pass_rows_.resize(window_rows);
      col_taps_.resize(window_rows);
    } else {
      w_ = weights(f.iw, f.w);
      source_rows_.resize(window_rows);
      taps_.resize(std::size_t(f.width()) * std::size_t(f.height()));
    }
  }

  std::size_t row_elements() const noexcept { return row_elements_; }

  // Makes the windows of output rows y .. y + rows - 1 (rows <= kGroup) available to `sums`. Rows of one
  // chunk are expected in increasing order (any order works, consecutive rows reuse the work already done).
  void prepare(int y, int rows) {
    const int h = 2 * ry_ + 1;
    for (int j = 0; j < h + rows - 1; ++j) {
      const int p = y - ry_ + j;
      if (separable_) {
        pass_rows_[std::size_t(j)] = horizontal_pass(p);
      } else {
        source_rows_[std::size_t(j)] = source_.get(p);
      }
    }
  }

  // out[r][i - begin] = window sum of element i of prepared row r, for r < rows and i in [begin, end).
  void sums(std::size_t begin, std::size_t end, Acc* const* out, int rows) {
    const std::size_t n = end - begin;
    const int h = 2 * ry_ + 1;
    if (separable_) {
      for (int j = 0; j < h + rows - 1; ++j) col_taps_[std::size_t(j)] = pass_rows_[std::size_t(j)] + begin;
      if constexpr (kGroup == 4) {
        if (rows == 4) return Arith::weighted_sum_x4(out, n, col_taps_.data(), wy_.data(), h);
      }
      for (int r = 0; r < rows; ++r) Arith::weighted_sum(out[r], n, col_taps_.data() + r, wy_.data(), h);
    } else {
      const int w = 2 * rx_ + 1;
      for (int r = 0; r < rows; ++r) {
        for (int j = 0; j < h; ++j)
          for (int k = 0; k < w; ++k)
            taps_[std::size_t(j * w + k)] =
                source_rows_[std::size_t(r + j)] + begin + std::size_t(k) * channels_;
        Arith::weighted_sum(out[r], n, taps_.data(), w_.data(), w * h);
      }
    }
  }

 private:
  // U8 uses the integer weights, F32 the float ones (widened for the reference: products of floats are exact
  // in double).
  static std::vector<Acc> weights(const std::vector<std::int32_t>& iw, const std::vector<float>& w) {
    if constexpr (std::is_integral_v<Acc>) {
      return std::vector<Acc>(iw.begin(),
                              iw.end());  // int16 only where every weight fits (u8_sums_fit_int16)
    } else {
      return std::vector<Acc>(w.begin(), w.end());
    }
  }

  // The horizontal pass of the source row at position p, cached in the ring slot p mod (2*ry + kGroup).
  const Acc* horizontal_pass(int p) {
    const std::size_t slot = std::size_t(floor_mod(p, int(pass_tags_.size())));
    Acc* dst = passes_.data() + slot * row_elements_;
    if (pass_tags_[slot] != p) {
      const Pix* src = source_.get(p);
      const int w = 2 * rx_ + 1;
      // Blocks small enough that the accumulator stays in L1 across the taps.
      for (std::size_t b = 0; b < row_elements_; b += kBlock) {
        const std::size_t n = std::min(kBlock, row_elements_ - b);
        for (int k = 0; k < w; ++k) pass_taps_[std::size_t(k)] = src + b + std::size_t(k) * channels_;
        Arith::weighted_sum(dst + b, n, pass_taps_.data(), wx_.data(), w);
      }
      pass_tags_[slot] = p;
    }
    return dst;
  }

  static constexpr std::size_t kBlock = 2048;

  int rx_, ry_;
  std::size_t channels_;
  std::size_t row_elements_;
  bool separable_;
  PaddedRows<Pix> source_;

  // 2-D path
  std::vector<Acc> w_;                   // row-major window weights
  std::vector<const Pix*> source_rows_;  // the prepared rows' windows, top to bottom (padded, from x = -rx)
  std::vector<const Pix*> taps_;         // per tap: where its run of elements starts

  // separable path
  std::vector<Acc> wx_, wy_;
  std::vector<Acc> passes_;     // ring of horizontal passes, 2*ry + kGroup rows of row_elements_
  std::vector<int> pass_tags_;  // source position held by each ring row (INT_MIN: none)
  std::vector<const Pix*> pass_taps_;
  std::vector<const Acc*> pass_rows_;  // the prepared rows' windows of horizontal passes, top to bottom
  std::vector<const Acc*> col_taps_;
};

}  // namespace ks::cpu
