// The block-parallel decomposition of the recursive Gaussian (stencil/recursive_tiles.hpp: tile summaries
// from zero carries, carry walks from the border warm-ups, the tiles again with their carries) against the
// sequential recursion: on 1-D lines against the recursion written out here in double, and in 2-D, step by
// step as the CUDA variant's launches run it (cuda/recursive_gaussian.cu), against the CPU's
// cpu_recursive. Odd sizes (one pixel, lines shorter than the warm-up, tiles that do not divide the line),
// one tile and many, every border mode, f32 and u8, 1 and 4 channels, sigma 2 to 64.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/thread_pool.hpp"
#include "registry/registry.hpp"
#include "stencil/border.hpp"
#include "stencil/cpu/recursive_cpu.hpp"
#include "stencil/recursive_carry_shares.hpp"
#include "stencil/recursive_tiles.hpp"
#include "stencil/stencil_math.hpp"
#include "support/exact_gaussian.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

const Border kBorders[] = {Border::Reflect101, Border::Reflect, Border::Replicate, Border::Wrap,
                           Border::Constant};

// The sequential filter of a line, written from the recursions' definitions (recursive_gaussian.hpp) in
// double: each section causal from the steady state `warmup` samples before the line, anti-causal from the
// steady state `warmup` samples after it, over the extended line.
std::vector<double> sequential_line(const std::vector<float>& x, const RecursiveGaussian& f, Border border,
                                    float outside) {
  const int n = int(x.size()), w = f.warmup;
  const auto ext = [&](int p) {
    const int i = remap(p, n, border);
    return i < 0 ? double(outside) : double(x[std::size_t(i)]);
  };
  std::vector<double> out(std::size_t(n), 0.0);
  for (const RecursiveSection& s : f.section) {
    double x1 = ext(-w), y1 = s.causal_gain * x1, y2 = y1;  // x[p-1], y[p-1], y[p-2]
    for (int p = -w; p < n; ++p) {
      const double y = s.n0 * ext(p) + s.n1 * x1 + s.d1 * y1 + s.d2 * y2;
      x1 = ext(p);
      y2 = y1;
      y1 = y;
      if (p >= 0) out[std::size_t(p)] += y;
    }
    double a1 = ext(n + w - 1), a2 = a1;  // x[p+1], x[p+2]
    y1 = y2 = s.anticausal_gain * a1;
    for (int p = n + w - 1; p >= 0; --p) {
      const double y = s.m1 * a1 + s.m2 * a2 + s.d1 * y1 + s.d2 * y2;
      a2 = a1;
      a1 = ext(p);
      y2 = y1;
      y1 = y;
      if (p < n) out[std::size_t(p)] += y;
    }
  }
  return out;
}

// The same line in tiles of `length`: every tile's summaries and the warm-ups (by the recursion, or by the
// weighted sums the GPU uses), the carry walks, every tile with its carries.
std::vector<float> tiled_line(const std::vector<float>& x, const RecursiveGaussian& f, Border border,
                              float outside, int length, bool weighted) {
  const int n = int(x.size());
  const LineTiles tiles = LineTiles::of(n, length);
  const SummaryWeights weights = summary_weights(f);
  const auto sample = [&](int i) { return x[std::size_t(i)]; };
  const auto tile_x = [&](int t) { return [&, t](int i) { return x[std::size_t(t * length + i)]; }; };
  std::vector<CausalLine> causal(static_cast<std::size_t>(tiles.count));
  std::vector<AnticausalLine> anticausal(static_cast<std::size_t>(tiles.count));
  for (int t = 0; t < tiles.count; ++t) {
    const std::size_t k = std::size_t(t);
    if (weighted) {
      weighted_summaries(weights, tiles.length_of(t), tile_x(t), causal[k], anticausal[k]);
    } else {
      causal[k] = causal_summary(f, tiles.length_of(t), tile_x(t));
      anticausal[k] = anticausal_summary(f, tiles.length_of(t), tile_x(t));
    }
  }
  const LineTransfers transfers = line_transfers(f, tiles);
  CausalLine causal_first = causal_warmup(f, n, border, outside, sample);
  AnticausalLine anticausal_first = anticausal_warmup(f, n, border, outside, sample);
  if (weighted)
    weighted_warmups(warmup_weights(f), n, border, outside, sample, causal_first, anticausal_first);
  walk_carries(
      tiles.count, false, causal_first, [&](int t) { return causal[std::size_t(t)]; },
      [&](int t, const CausalLine& c) { causal[std::size_t(t)] = c; }, transfers);
  walk_carries(
      tiles.count, true, anticausal_first, [&](int t) { return anticausal[std::size_t(t)]; },
      [&](int t, const AnticausalLine& a) { anticausal[std::size_t(t)] = a; }, transfers);
  std::vector<float> out(static_cast<std::size_t>(n)), keep(static_cast<std::size_t>(length));
  for (int t = 0; t < tiles.count; ++t)
    filter_tile(
        f, tiles.length_of(t), tile_x(t), causal[std::size_t(t)], anticausal[std::size_t(t)],
        [&](int i) -> float& { return keep[std::size_t(i)]; },
        [&](int i, float v) { out[std::size_t(t * length + i)] = v; });
  return out;
}

// Within 5e-5 of the value range: the float recursion itself is off the double one by up to 5e-6 at sigma 64
// (one tile of 1023 samples), many short tiles (341 of 3) by up to 3.5e-5, each carry's rounding carried on
// through poles close to 1; a wrong carry, halo or warm-up is off by percents.
TEST(RecursiveTiles, LinesInTilesEqualTheSequentialRecursion) {
  std::uint32_t seed = 7;
  for (int n : {1, 2, 7, 33, 65, 1023})
    for (int length : {1, 3, 32, 64})
      for (double sigma : {2.0, 16.0, 64.0}) {
        const RecursiveGaussian f = recursive_gaussian(sigma);
        std::vector<float> x(static_cast<std::size_t>(n));
        const Image noise = test::random_image(n, 1, 1, ElemType::F32, seed++);  // values in [0, 1]
        for (int i = 0; i < n; ++i) x[std::size_t(i)] = noise.row<float>(0)[i];
        for (Border border : kBorders) {
          SCOPED_TRACE("n " + std::to_string(n) + " tiles of " + std::to_string(length) + " sigma " +
                       std::to_string(sigma) + " " + std::string(to_string(border)));
          const std::vector<double> expected = sequential_line(x, f, border, 0.75f);
          for (bool weighted : {false, true}) {
            const std::vector<float> tiled = tiled_line(x, f, border, 0.75f, length, weighted);
            double largest = 0;
            for (int i = 0; i < n; ++i)
              largest =
                  std::max(largest, std::fabs(double(tiled[std::size_t(i)]) - expected[std::size_t(i)]));
            EXPECT_LE(largest, 5e-5) << (weighted ? "summaries as weighted sums"
                                                  : "summaries by the recursion");
          }
        }
      }
}

// The CUDA variant's steps (cuda/recursive_gaussian.cu) over an image, tile by tile, in element lines (a
// pixel's channels are lines of their own).
template <class Pix>
class TiledImage {
 public:
  TiledImage(const Image& in, const RecursiveGaussian& f, Border border, float outside, int tile)
      : in_(in),
        f_(f),
        border_(border),
        outside_(outside),
        tile_(tile),
        c_(in.channels()),
        row_tiles_(LineTiles::of(in.width(), tile)),
        column_tiles_(LineTiles::of(in.height(), tile)),
        edge_rows_(EdgeRows::of(in.height(), f.warmup)) {}

  Image run() {
    const int lines = in_.height() * c_, elements = in_.width() * c_;
    std::vector<float> row_table(CarryTable::floats(row_tiles_.count, lines));
    std::vector<float> column_table(CarryTable::floats(column_tiles_.count, elements));
    edge_.assign(std::size_t(edge_rows_.count()) * std::size_t(elements), 0.f);
    std::vector<float> row_warmups(CarryTable::floats(1, lines)),
        column_warmups(CarryTable::floats(1, elements));
    rows_ = {row_table.data(), lines};
    columns_ = {column_table.data(), elements};
    row_warmups_ = {row_warmups.data(), lines};
    column_warmups_ = {column_warmups.data(), elements};
    for_each_tile([&](int tx, int ty) { row_pass(tx, ty); });
    for (int line = 0; line < lines; ++line) row_carries(line);
    for_each_tile([&](int tx, int ty) { column_shares(tx, ty); });
    for (int column = 0; column < elements; ++column) column_carries(column);
    Image out(in_.shape());
    for_each_tile([&](int tx, int ty) { final_tile(tx, ty, out); });
    return out;
  }

 private:
  template <class F>
  void for_each_tile(F&& f) {
    for (int ty = 0; ty < column_tiles_.count; ++ty)
      for (int tx = 0; tx < row_tiles_.count; ++tx) f(tx, ty);
  }
  float pixel(int x, int y, int ch) const { return float(in_.row<Pix>(y)[std::size_t(x) * c_ + ch]); }
  // Step 1 of the two-read form: the tile's rows filtered from zero carries, their end states the rows'
  // summaries; the columns' zero-carry summaries and the edge rows from them.
  void row_pass(int tx, int ty) {
    const int w = row_tiles_.length_of(tx), h = column_tiles_.length_of(ty);
    std::vector<float> zs(std::size_t(h) * std::size_t(w * c_)), keep(static_cast<std::size_t>(w));
    for (int r = 0; r < h; ++r)
      for (int ch = 0; ch < c_; ++ch) {
        float* z_row = zs.data() + std::size_t(r) * std::size_t(w * c_) + ch;
        const int y = ty * tile_ + r, line = y * c_ + ch;
        CausalLine causal;
        AnticausalLine anticausal;
        filter_tile(
            f_, w, [&](int i) { return pixel(tx * tile_ + i, y, ch); }, CausalLine{}, AnticausalLine{},
            [&](int i) -> float& { return keep[std::size_t(i)]; }, [&](int i, float v) { z_row[i * c_] = v; },
            &causal, &anticausal);
        rows_.set(tx, line, causal);
        rows_.set(tx, line, anticausal);
      }
    store_columns(tx, ty, zs);
  }

  // The tile's columns of rows `ys` (element (r, e) at [r * w * C + e]) summed into the column table, and its
  // rows in the edge bands kept.
  void store_columns(int tx, int ty, const std::vector<float>& ys) {
    const int w = row_tiles_.length_of(tx), h = column_tiles_.length_of(ty);
    for (int e = 0; e < w * c_; ++e) {
      const int column = tx * tile_ * c_ + e;
      const auto y = [&](int i) { return ys[std::size_t(i) * std::size_t(w * c_) + std::size_t(e)]; };
      CausalLine causal;
      AnticausalLine anticausal;
      weighted_summaries(weights_, h, y, causal, anticausal);
      columns_.set(ty, column, causal);
      columns_.set(ty, column, anticausal);
      for (int i = 0; i < h; ++i) {
        const int slot = edge_rows_.slot(ty * tile_ + i);
        if (slot >= 0) edge_[std::size_t(slot) * std::size_t(columns_.lines) + std::size_t(column)] = y(i);
      }
    }
  }

  // Step 4: the columns' summaries and edge rows completed with the shares of the rows' carries.
  void column_shares(int tx, int ty) {
    const int w = row_tiles_.length_of(tx), h = column_tiles_.length_of(ty);
    const CarryResponses responses = carry_responses(f_, w);
    std::vector<CarryColumnShares> shares;
    for (int ch = 0; ch < c_; ++ch)
      shares.push_back(carry_column_shares(weights_, h, [&](int r, int c) {
        const int line = (ty * tile_ + r) * c_ + ch;
        float k[kCarryComponents];
        carry_components(rows_.causal(tx, line), rows_.anticausal(tx, line), k);
        return k[c];
      }));
    for (int e = 0; e < w * c_; ++e) {
      const int i = e / c_, ch = e % c_, column = tx * tile_ * c_ + e;
      CausalLine causal = columns_.causal(ty, column);
      AnticausalLine anticausal = columns_.anticausal(ty, column);
      const ColumnResponse response = column_response(responses, i);
      add_carry_shares(response, h, shares[std::size_t(ch)], causal, anticausal);
      columns_.set(ty, column, causal);
      columns_.set(ty, column, anticausal);
      for (int r = 0; r < h; ++r) {
        const int slot = edge_rows_.slot(ty * tile_ + r);
        if (slot < 0) continue;
        const int line = (ty * tile_ + r) * c_ + ch;
        float& y = edge_[std::size_t(slot) * std::size_t(columns_.lines) + std::size_t(column)];
        y = add_row_carries_response(response, rows_.causal(tx, line), rows_.anticausal(tx, line), y);
      }
    }
  }

  // A line's carries, from its warm-ups as weighted sums (the GPU's warm-up kernel) kept in a one-tile table.
  template <class Sample>
  void carries(const CarryTable& table, const CarryTable& warmups, int line, const LineTiles& tiles,
               const Sample& sample) {
    const int n = (tiles.count - 1) * tiles.length + tiles.last;
    CausalLine causal;
    AnticausalLine anticausal;
    weighted_warmups(warmup_weights_, n, border_, outside_, sample, causal, anticausal);
    warmups.set(0, line, causal);
    warmups.set(0, line, anticausal);
    for (bool backwards : {false, true})
      line_carries(table, line, backwards, tiles, line_transfers(f_, tiles), warmups);
  }

  void row_carries(int line) {
    const int y = line / c_, ch = line % c_;
    carries(rows_, row_warmups_, line, row_tiles_, [&](int i) { return pixel(i, y, ch); });
  }

  void column_carries(int column) {
    carries(columns_, column_warmups_, column, column_tiles_, [&](int y) {
      return edge_[std::size_t(edge_rows_.slot(y)) * std::size_t(columns_.lines) + std::size_t(column)];
    });
  }

  // The row pass of the tile's rows from their carries: element (r, e) at [r * w * C + e].
  std::vector<float> tile_rows(int tx, int ty) const {
    const int w = row_tiles_.length_of(tx), h = column_tiles_.length_of(ty);
    std::vector<float> ys(std::size_t(h) * std::size_t(w * c_)), keep(static_cast<std::size_t>(w));
    for (int r = 0; r < h; ++r)
      for (int ch = 0; ch < c_; ++ch) {
        float* y_row = ys.data() + std::size_t(r) * std::size_t(w * c_) + ch;
        const int y = ty * tile_ + r, line = y * c_ + ch;
        filter_tile(
            f_, w, [&](int i) { return pixel(tx * tile_ + i, y, ch); }, rows_.causal(tx, line),
            rows_.anticausal(tx, line), [&](int i) -> float& { return keep[std::size_t(i)]; },
            [&](int i, float v) { y_row[i * c_] = v; });
      }
    return ys;
  }

  void final_tile(int tx, int ty, Image& out) const {
    const int w = row_tiles_.length_of(tx), h = column_tiles_.length_of(ty);
    const std::vector<float> ys = tile_rows(tx, ty);
    std::vector<float> keep(static_cast<std::size_t>(h));
    for (int e = 0; e < w * c_; ++e) {
      const int column = tx * tile_ * c_ + e;
      filter_tile(
          f_, h, [&](int i) { return ys[std::size_t(i) * std::size_t(w * c_) + std::size_t(e)]; },
          columns_.causal(ty, column), columns_.anticausal(ty, column),
          [&](int i) -> float& { return keep[std::size_t(i)]; },
          [&](int i, float v) {
            Pix& p = out.row<Pix>(ty * tile_ + i)[column];
            if constexpr (sizeof(Pix) == 1) {
              p = saturate_u8(v);
            } else {
              p = v;
            }
          });
    }
  }

  const Image& in_;
  RecursiveGaussian f_;
  Border border_;
  float outside_;
  int tile_, c_;
  LineTiles row_tiles_, column_tiles_;
  EdgeRows edge_rows_;
  SummaryWeights weights_ = summary_weights(f_);
  WarmupWeights warmup_weights_ = warmup_weights(f_);
  CarryTable rows_{}, columns_{}, row_warmups_{}, column_warmups_{};
  std::vector<float> edge_;
};

Image tiled_image(const Image& in, double sigma, Border border, float outside, int tile) {
  const RecursiveGaussian f = recursive_gaussian(sigma);
  if (in.type() == ElemType::U8) return TiledImage<std::uint8_t>(in, f, border, outside, tile).run();
  return TiledImage<float>(in, f, border, outside, tile).run();
}

Image cpu_recursive(const Image& in, double sigma, Border border, double border_value) {
  static ThreadPool pool(2);
  Image out(in.shape());
  cpu::run_recursive_gaussian(
      make_stencil_plan("gaussian", test::gaussian_params(sigma, to_string(border), border_value)), in, out,
      pool);
  return out;
}

// Tiles of 64 and 32 (the CUDA variant's, one channel and four) and of 5 (many tiles, uneven ends).
TEST(RecursiveTiles, ImagesInTilesEqualTheCpuRecursive) {
  std::uint32_t seed = 31;
  const struct { int w, h; } sizes[] = {{1, 1}, {1023, 7}, {7, 1023}, {33, 65}, {65, 33}, {130, 129}};
  for (const auto& size : sizes)
    for (ElemType type : {ElemType::F32, ElemType::U8})
      for (int channels : {1, 4})
        for (double sigma : {2.0, 64.0})
          for (Border border : kBorders)
            for (int tile : {5, channels == 1 ? 64 : 32}) {
              if (size.w * size.h > 20000 && (tile == 5 || channels == 4)) continue;  // the sweep's time
              SCOPED_TRACE(std::to_string(size.w) + "x" + std::to_string(size.h) + " " + to_string(type) +
                           " " + std::to_string(channels) + "ch sigma " + std::to_string(sigma) + " " +
                           std::string(to_string(border)) + " tiles of " + std::to_string(tile));
              const Image in = test::random_image(size.w, size.h, channels, type, seed++);
              const bool u8 = type == ElemType::U8;
              const double border_value = u8 ? 200.6 : 0.75;
              const float outside = u8 ? float(saturate_u8(float(border_value))) : float(border_value);
              const double difference =
                  test::largest_difference(tiled_image(in, sigma, border, outside, tile),
                                           cpu_recursive(in, sigma, border, border_value));
              EXPECT_LE(difference, u8 ? 1.0 : 5e-5);
            }
}

// The rows the columns' warm-ups read: of an image taller than twice the warm-up only the top and bottom
// ones, of a shorter one every row.
TEST(RecursiveTiles, EdgeRowsKeepWhatTheWarmUpsRead) {
  const EdgeRows tall = EdgeRows::of(1000, 10);
  EXPECT_EQ(tall.count(), 22);
  EXPECT_EQ(tall.slot(0), 0);
  EXPECT_EQ(tall.slot(10), 10);
  EXPECT_EQ(tall.slot(11), -1);
  EXPECT_EQ(tall.slot(988), -1);
  EXPECT_EQ(tall.slot(989), 11);
  EXPECT_EQ(tall.slot(999), 21);
  const EdgeRows short_image = EdgeRows::of(15, 10);
  EXPECT_EQ(short_image.count(), 15);
  for (int y = 0; y < 15; ++y) EXPECT_EQ(short_image.slot(y), y);
}

// A tile row filtered with the given carries (carry_components' order), in double: the recursions of
// recursive_gaussian.hpp from those states.
std::vector<double> row_filtered_in_double(const float* x, int n, const RecursiveGaussian& f,
                                           const float (&k)[kCarryComponents]) {
  std::vector<double> out(std::size_t(n), 0.0);
  for (int section = 0; section < 2; ++section) {
    const RecursiveSection& s = f.section[section];
    double xp = k[0], y1 = k[1 + 2 * section], y2 = k[2 + 2 * section];
    for (int i = 0; i < n; ++i) {
      const double y = s.n0 * x[i] + s.n1 * xp + s.d1 * y1 + s.d2 * y2;
      xp = x[i], y2 = y1, y1 = y;
      out[std::size_t(i)] += y;
    }
    double x1 = k[5], x2 = k[6];
    y1 = k[7 + 2 * section], y2 = k[8 + 2 * section];
    for (int i = n - 1; i >= 0; --i) {
      const double y = s.m1 * x1 + s.m2 * x2 + s.d1 * y1 + s.d2 * y2;
      x2 = x1, x1 = x[i], y2 = y1, y1 = y;
      out[std::size_t(i)] += y;
    }
  }
  return out;
}

// The two-read form's algebra (recursive_carry_shares.hpp): a tile's column summaries from its rows filtered from zero
// carries plus the carries' shares equal the column summaries of its rows filtered with their carries (those
// filtered in double here: the float filter itself is further from them than the two-read form, 4.8e-5 against
// 3.3e-6 at sigma 64); and a row filtered from zero ends in its summaries. Random samples and random carries (a
// carry can hold anything the walks give), tiles from 1x1 to 64x64 with odd sides, sigma 2 to 64.
TEST(RecursiveTiles, TwoReadColumnSummariesEqualThoseOfTheFilteredRows) {
  std::uint32_t seed = 41;
  const std::pair<int, int> sizes[] = {{1, 1}, {1, 5}, {7, 3}, {2, 64}, {63, 63}, {64, 64}, {33, 17}};
  for (const auto& [width, height] : sizes)
    for (double sigma : {2.0, 16.0, 64.0}) {
      SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " sigma " + std::to_string(sigma));
      const RecursiveGaussian f = recursive_gaussian(sigma);
      const SummaryWeights weights = summary_weights(f);
      const Image tile = test::random_image(width, height, 1, ElemType::F32, seed++);
      const Image carries = test::random_image(kCarryComponents, height, 1, ElemType::F32, seed++);
      std::vector<float> filtered(std::size_t(width) * std::size_t(height), 0.f);
      std::vector<float> zero(filtered.size(), 0.f), keep(std::size_t(width), 0.f);
      // Row r's carries (carry_components' order), in [0, 1] shifted to [-1, 1].
      const auto carry = [&](int r, int c) { return 2 * carries.row<float>(r)[c] - 1; };
      const CarryColumnShares shares = carry_column_shares(weights, height, carry);
      for (int r = 0; r < height; ++r) {
        const float* x = tile.row<float>(r);
        float k[kCarryComponents];
        for (int c = 0; c < kCarryComponents; ++c) k[c] = carry(r, c);
        const std::vector<double> row = row_filtered_in_double(x, width, f, k);
        for (int i = 0; i < width; ++i) filtered[std::size_t(r) * width + i] = float(row[std::size_t(i)]);
        const auto sample = [&](int i) { return x[i]; };
        CausalLine c_end;
        AnticausalLine a_end;
        filter_tile(
            f, width, sample, CausalLine{}, AnticausalLine{}, [&](int i) -> float& { return keep[std::size_t(i)]; },
            [&](int i, float v) { zero[std::size_t(r) * width + i] = v; }, &c_end, &a_end);
        const CausalLine c_summary = causal_summary(f, width, sample);
        const AnticausalLine a_summary = anticausal_summary(f, width, sample);
        EXPECT_EQ(c_end.xp, c_summary.xp);
        EXPECT_EQ(c_end.s.a1, c_summary.s.a1) << "row " << r;
        EXPECT_EQ(c_end.s.b2, c_summary.s.b2) << "row " << r;
        EXPECT_EQ(a_end.x1, a_summary.x1);
        EXPECT_EQ(a_end.x2, a_summary.x2);
        EXPECT_EQ(a_end.s.a2, a_summary.s.a2) << "row " << r;
        EXPECT_EQ(a_end.s.b1, a_summary.s.b1) << "row " << r;
      }
      const CarryResponses responses = carry_responses(f, width);
      for (int i = 0; i < width; ++i) {
        const auto column = [&](const std::vector<float>& rows) {
          return [&rows, i, width](int r) { return rows[std::size_t(r) * width + i]; };
        };
        CausalLine want_c, got_c;
        AnticausalLine want_a, got_a;
        weighted_summaries(weights, height, column(filtered), want_c, want_a);
        weighted_summaries(weights, height, column(zero), got_c, got_a);
        add_carry_shares(column_response(responses, i), height, shares, got_c, got_a);
        const float want[] = {want_c.xp, want_c.s.a1, want_c.s.a2, want_c.s.b1, want_c.s.b2, want_a.x1,
                              want_a.x2, want_a.s.a1, want_a.s.a2, want_a.s.b1, want_a.s.b2};
        const float got[] = {got_c.xp, got_c.s.a1, got_c.s.a2, got_c.s.b1, got_c.s.b2, got_a.x1,
                             got_a.x2, got_a.s.a1, got_a.s.a2, got_a.s.b1, got_a.s.b2};
        // A missing or misplaced share is off by the size of a carry (up to 1).
        for (int k = 0; k < kCarryComponents; ++k)
          EXPECT_NEAR(got[k], want[k], 1e-5f * (1 + std::abs(want[k]))) << "column " << i << ", number " << k;
      }
    }
}

}  // namespace
}  // namespace ks
