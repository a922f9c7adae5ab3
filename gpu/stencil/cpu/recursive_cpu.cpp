// Two passes: along the rows, then down the columns. The column pass vectorises naturally (a line per element
// column, the lanes side by side in memory); the row pass transposes a band of rows, border extension included,
// into a buffer where the rows' samples lie side by side, runs the same loops there, and transposes the result
// back into a float image. Each pass keeps the causal result where the anti-causal pass that completes it will
// write (the band's result buffer; the output rows, or for u8 a float strip), and a column strip (32 floats wide)
// stays in the L2 cache between its two halves.
#include "stencil/cpu/recursive_cpu.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/border_remap.hpp"
#include "core/error.hpp"
#include "stencil/cpu/plan_check.hpp"
#include "stencil/cpu/simd/recursive_lines.hpp"
#include "stencil/recursive_gaussian.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cpu {

namespace {

// Lines run side by side: two vectors of 16 floats (AVX-512), with two sections each four chains of
// multiply-adds (simd/recursive_lines.cpp).
constexpr int kLines = 32;

// A line of n samples with its extension: positions [0, warmup) before it, [warmup, warmup + n) the line, then
// warmup after it.
struct ExtendedLine {
  int n, warmup;
  int positions() const { return 2 * warmup + n; }
  // The sample position p reads, or -1 for the constant border.
  int source(int p, Border border) const { return remap(p - warmup, n, border); }
};

// Both passes over `lines` lines whose extended samples are x[p] (p in [0, positions)): the result of line
// position q lands in out[q] (q in [0, n)); causal[q] keeps the causal result until then (it may be out itself
// when out is float).
template <class Out>
void filter_lines(const ExtendedLine& e, const std::vector<const float*>& x, const std::vector<float*>& causal,
                  const std::vector<Out*>& out, std::size_t lines, const RecursiveGaussian& f) {
  const std::size_t warmup = std::size_t(e.warmup), n = std::size_t(e.n);
  std::vector<float> state(simd::kAnticausalState * lines);
  simd::start_causal(state.data(), x.front(), lines, f);
  simd::causal_lines(x.data(), nullptr, warmup, lines, state.data(), f);
  simd::causal_lines(x.data() + warmup, causal.data(), n, lines, state.data(), f);
  simd::start_anticausal(state.data(), x.back(), lines, f);
  simd::anticausal_lines(x.data() + warmup + n, nullptr, static_cast<float* const*>(nullptr), warmup, lines,
                         state.data(), f);
  const std::vector<const float*> kept(causal.begin(), causal.end());
  simd::anticausal_lines(x.data() + warmup, kept.data(), out.data(), n, lines, state.data(), f);
}

template <class Pix>
float border_value_of(const StencilPlan& plan) {
  if constexpr (sizeof(Pix) == 1) {
    return float(saturate_u8(plan.border_value));
  } else {
    return plan.border_value;
  }
}

// Buffers a thread reuses from band to band.
struct BandBuffers {
  std::vector<float> samples, result;
};

// The row pass of rows [y0, y0 + rows) into `tmp` (float, row_elements a row).
template <class Pix>
void row_band(const StencilPlan& plan, const Image& in, std::vector<float>& tmp, int y0, int rows,
              const RecursiveGaussian& f, BandBuffers& b) {
  const int c = in.channels();
  const ExtendedLine e{in.width(), f.warmup};
  const std::size_t lines = std::size_t(rows) * std::size_t(c), positions = std::size_t(e.positions());
  b.samples.resize(positions * lines);
  b.result.resize(std::size_t(e.n) * lines);
  // Position by position, the band's rows side by side: the buffer is written in order, and each row is read in
  // order (one stream per row), so the transposition stays within the caches.
  const float outside = border_value_of<Pix>(plan);
  std::vector<const Pix*> src(static_cast<std::size_t>(rows));
  for (int r = 0; r < rows; ++r) src[std::size_t(r)] = in.row<Pix>(y0 + r);
  for (std::size_t p = 0; p < positions; ++p) {
    const int x = e.source(int(p), plan.border);
    float* dst = b.samples.data() + p * lines;
    if (x < 0) {
      std::fill_n(dst, lines, outside);
      continue;
    }
    for (int r = 0; r < rows; ++r)
      for (int ch = 0; ch < c; ++ch)
        dst[std::size_t(r) * c + ch] = float(src[std::size_t(r)][std::size_t(x) * c + ch]);
  }
  std::vector<const float*> x(positions);
  std::vector<float*> y(std::size_t(e.n));
  for (std::size_t p = 0; p < positions; ++p) x[p] = b.samples.data() + p * lines;
  for (int q = 0; q < e.n; ++q) y[std::size_t(q)] = b.result.data() + std::size_t(q) * lines;
  filter_lines(e, x, y, y, lines, f);
  // Back position by position: the result is read in order, each row of tmp written in order.
  const std::size_t row_elements = std::size_t(in.width()) * c;
  float* const out = tmp.data() + std::size_t(y0) * row_elements;
  for (int q = 0; q < e.n; ++q) {
    const float* from = y[std::size_t(q)];
    for (int r = 0; r < rows; ++r)
      for (int ch = 0; ch < c; ++ch)
        out[std::size_t(r) * row_elements + std::size_t(q) * c + ch] = from[std::size_t(r) * c + ch];
  }
}

// The column pass of element columns [e0, e0 + lines) of `tmp` into `out`.
template <class Pix>
void column_strip(const StencilPlan& plan, const std::vector<float>& tmp, Image& out, std::size_t e0,
                  std::size_t lines, const RecursiveGaussian& f, const std::vector<float>& constant_row,
                  std::vector<float>& strip) {
  const ExtendedLine e{out.height(), f.warmup};
  const std::size_t row_elements = std::size_t(out.width()) * out.channels();
  std::vector<const float*> x(std::size_t(e.positions()));
  for (std::size_t p = 0; p < x.size(); ++p) {
    const int y = e.source(int(p), plan.border);
    x[p] = y < 0 ? constant_row.data() : tmp.data() + std::size_t(y) * row_elements + e0;
  }
  std::vector<Pix*> dst(std::size_t(e.n));
  for (int y = 0; y < e.n; ++y) dst[std::size_t(y)] = out.row<Pix>(y) + e0;
  std::vector<float*> causal(std::size_t(e.n));
  if constexpr (sizeof(Pix) == 4) {
    causal = dst;  // the output rows keep the causal result until the anti-causal pass completes it
  } else {
    strip.resize(std::size_t(e.n) * lines);
    for (int y = 0; y < e.n; ++y) causal[std::size_t(y)] = strip.data() + std::size_t(y) * lines;
  }
  filter_lines(e, x, causal, dst, lines, f);
}

template <class Pix>
void recursive_blur(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  const RecursiveGaussian f = recursive_gaussian(plan.gaussian_sigma);
  const int c = in.channels();
  const std::size_t row_elements = std::size_t(in.width()) * c;
  std::vector<float> tmp(row_elements * std::size_t(in.height()));

  const int band_rows = std::max(1, kLines / c);
  const long long bands = (in.height() + band_rows - 1) / band_rows;
  pool.parallel_for(0, bands, [&](long long b0, long long b1) {
    BandBuffers buffers;
    for (long long b = b0; b < b1; ++b) {
      const int y0 = int(b) * band_rows;
      row_band<Pix>(plan, in, tmp, y0, std::min(band_rows, in.height() - y0), f, buffers);
    }
  });

  const std::vector<float> constant_row(kLines, border_value_of<Pix>(plan));
  const long long strips = (static_cast<long long>(row_elements) + kLines - 1) / kLines;
  pool.parallel_for(0, strips, [&](long long s0, long long s1) {
    std::vector<float> strip;
    for (long long s = s0; s < s1; ++s) {
      const std::size_t e0 = std::size_t(s) * kLines;
      column_strip<Pix>(plan, tmp, out, e0, std::min<std::size_t>(kLines, row_elements - e0), f, constant_row,
                        strip);
    }
  });
}

}  // namespace

void run_recursive_gaussian(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool) {
  check_stencil_input(in);
  if (!(out.shape() == in.shape()))
    throw Error(ErrorKind::Internal, "run_recursive_gaussian: the output image must have the input's shape");
  if (plan.gaussian_sigma < kRecursiveMinSigma)
    throw Error(ErrorKind::Internal, "run_recursive_gaussian: not a gaussian plan of sigma >= 1");
  if (in.type() == ElemType::U8)
    recursive_blur<std::uint8_t>(plan, in, out, pool);
  else
    recursive_blur<float>(plan, in, out, pool);
}

}  // namespace ks::cpu
