#pragma once
// The exact Gaussian the recursive variants are held against: separable, weights exp(-i^2 / 2 sigma^2) out to
// 6 sigma (the weight left beyond is below 2e-9, where the kernel's own windows stop at 3 sigma), summed in
// double over the border-extended image (tests/cpu/test_stencil_cpu_reference.hpp's extension, written out
// without ks::remap). Also the measure the README quotes: the largest difference as a fraction of the input's
// value range.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "cpu/test_stencil_cpu_reference.hpp"
#include "registry/registry.hpp"
#include "stencil/border.hpp"
#include "support/test_support.hpp"

namespace ks::test {

inline std::vector<double> gaussian_weights(double sigma) {
  const int r = int(std::ceil(6 * sigma));
  std::vector<double> w;
  double sum = 0;
  for (int i = -r; i <= r; ++i) sum += w.emplace_back(std::exp(-double(i) * i / (2 * sigma * sigma)));
  for (double& v : w) v /= sum;
  return w;
}

// Every element of the Gaussian-filtered image, unrounded (row-major, channels interleaved). `border_value` in
// the image's units (for u8 the caller gives the value the kernel reads: saturate_u8 of the parameter).
inline std::vector<double> exact_gaussian(const Image& in, double sigma, Border border, double border_value) {
  const std::vector<double> w = gaussian_weights(sigma);
  const int r = int(w.size() / 2), width = in.width(), height = in.height(), ch = in.channels();
  const std::vector<int> xs = extended_indices(width, r, border), ys = extended_indices(height, r, border);
  // Rows first, over the image's rows; then columns, an extended row being the row pass of the row it repeats
  // (or the constant, which the row pass keeps: the weights sum to 1).
  std::vector<double> rows(std::size_t(width) * height * ch);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < ch; ++c) {
        double s = 0;
        for (int i = 0; i < int(w.size()); ++i) {
          const int sx = xs[std::size_t(x + i)];
          s += w[std::size_t(i)] * (sx < 0 ? border_value : element(in, sx, y, c));
        }
        rows[(std::size_t(y) * width + x) * ch + c] = s;
      }
  std::vector<double> out(rows.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < ch; ++c) {
        double s = 0;
        for (int j = 0; j < int(w.size()); ++j) {
          const int sy = ys[std::size_t(y + j)];
          s += w[std::size_t(j)] * (sy < 0 ? border_value : rows[(std::size_t(sy) * width + x) * ch + c]);
        }
        out[(std::size_t(y) * width + x) * ch + c] = s;
      }
  return out;
}

// The input's value range (largest minus smallest element), or 1 for a constant image.
inline double value_range(const Image& in) {
  double lo = element(in, 0, 0, 0), hi = lo;
  for (int y = 0; y < in.height(); ++y)
    for (int x = 0; x < in.width(); ++x)
      for (int c = 0; c < in.channels(); ++c) {
        lo = std::min(lo, element(in, x, y, c));
        hi = std::max(hi, element(in, x, y, c));
      }
  return hi > lo ? hi - lo : 1.0;
}

// The largest |result - expected| over pixels at least `margin` pixels from every edge (0: all of them).
inline double largest_difference(const Image& result, const std::vector<double>& expected, int margin = 0) {
  double worst = 0;
  for (int y = margin; y < result.height() - margin; ++y)
    for (int x = margin; x < result.width() - margin; ++x)
      for (int c = 0; c < result.channels(); ++c)
        worst = std::max(worst, std::abs(element(result, x, y, c) -
                                         expected[(std::size_t(y) * result.width() + x) * result.channels() + c]));
  return worst;
}

// The largest |a - b| over every element of two images of one shape.
inline double largest_difference(const Image& a, const Image& b) {
  double worst = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      for (int c = 0; c < a.channels(); ++c)
        worst = std::max(worst, std::abs(element(a, x, y, c) - element(b, x, y, c)));
  return worst;
}

// The gaussian kernel's parameters at this sigma and border.
inline ParamSet gaussian_params(double sigma, const std::string& border = "reflect101", double border_value = 0) {
  ParamSet p = KernelRegistry::builtin().get("gaussian").default_params();
  p.set("sigma", std::to_string(sigma));
  p.set("border", border);
  p.set("border_value", std::to_string(border_value));
  return p;
}

// One input of the recursive variants' sweep over odd sizes.
struct RecursiveCase {
  Image in;
  double sigma;
  const char* border;
  double border_value;  // off the image's values (u8: off the integers too, which the kernels round)
};

// f(case) for odd sizes (one pixel; lines shorter than the warm-up, whose extension wraps around them many
// times; widths and heights that fill no block of 32 lines) x every border mode x f32, u8 x 1, 4 channels x
// sigma 1, 3.5, 20, each on its own random image; SCOPED_TRACE names the case.
template <class F>
void for_each_recursive_case(std::uint32_t seed, F&& f) {
  const struct {
    int w, h;
  } sizes[] = {{1, 1}, {1023, 7}, {7, 1023}, {45, 33}, {2, 97}};
  for (const auto& size : sizes)
    for (const char* border : {"reflect101", "reflect", "replicate", "wrap", "constant"})
      for (ElemType type : {ElemType::F32, ElemType::U8})
        for (int channels : {1, 4})
          for (double sigma : {1.0, 3.5, 20.0}) {
            SCOPED_TRACE(std::to_string(size.w) + "x" + std::to_string(size.h) + " " + border + " " +
                         to_string(type) + " " + std::to_string(channels) + "ch sigma " + std::to_string(sigma));
            f(RecursiveCase{random_image(size.w, size.h, channels, type, seed++), sigma, border,
                            type == ElemType::U8 ? 200.6 : 0.75});
          }
}

}  // namespace ks::test
