#include "stencil/stencil_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace ks {

// ---- StencilPlan ----------------------------------------------------------------------------------------------

int StencilPlan::radius_x() const noexcept {
  switch (kind) {
    case Kind::GradientMagnitude: return std::max(a.rx, b.rx);
    case Kind::Median: return median_radius;
    default: return a.rx;
  }
}

int StencilPlan::radius_y() const noexcept {
  switch (kind) {
    case Kind::GradientMagnitude: return std::max(a.ry, b.ry);
    case Kind::Median: return median_radius;
    default: return a.ry;
  }
}

bool StencilPlan::separable() const noexcept {
  switch (kind) {
    case Kind::GradientMagnitude: return a.separable.has_value() && b.separable.has_value();
    case Kind::Median: return false;
    default: return a.separable.has_value();
  }
}

namespace {

// ---- Filter builders ------------------------------------------------------------------------------------------

// Outer product wy (column) x wx (row): both the float and the exact integer window.
LinearFilter separable_filter(const std::vector<double>& wx, const std::vector<double>& wy,
                              const std::vector<std::int32_t>& iwx, const std::vector<std::int32_t>& iwy,
                              std::int32_t divisor) {
  LinearFilter f;
  f.rx = int(wx.size() / 2);
  f.ry = int(wy.size() / 2);
  f.divisor = divisor;
  LinearFilter::Separable s;
  for (double v : wx) s.wx.push_back(float(v));
  for (double v : wy) s.wy.push_back(float(v));
  s.iwx = iwx;
  s.iwy = iwy;
  for (std::size_t y = 0; y < wy.size(); ++y) {
    for (std::size_t x = 0; x < wx.size(); ++x) {
      f.w.push_back(float(wy[y] * wx[x]));
      f.iw.push_back(iwy[y] * iwx[x]);
    }
  }
  f.separable = std::move(s);
  return f;
}

LinearFilter box_filter(int radius) {
  const int n = 2 * radius + 1;
  std::vector<double> w(n, 1.0 / n);
  std::vector<std::int32_t> iw(n, 1);
  return separable_filter(w, w, iw, iw, n * n);
}

// Gaussian weights of one axis, normalised to sum 1, and their fixed-point form summing to exactly 2^bits.
// 11 bits per axis keeps 255 * 2^22 inside int32 for the 2-D sum.
constexpr int kGaussianBits = 11;

void gaussian_axis(double sigma, int radius, std::vector<double>& w, std::vector<std::int32_t>& iw) {
  w.assign(2 * radius + 1, 0.0);
  for (int i = -radius; i <= radius; ++i) w[i + radius] = std::exp(-double(i) * i / (2 * sigma * sigma));
  const double sum = std::accumulate(w.begin(), w.end(), 0.0);
  for (double& v : w) v /= sum;
  const std::int32_t one = 1 << kGaussianBits;
  iw.assign(w.size(), 0);
  std::int32_t isum = 0;
  for (std::size_t i = 0; i < w.size(); ++i) isum += iw[i] = std::int32_t(std::lround(w[i] * one));
  iw[radius] += one - isum;  // the rounding residue goes to the centre tap, the largest
}

LinearFilter gaussian_filter(double sigma, int radius) {
  std::vector<double> w;
  std::vector<std::int32_t> iw;
  gaussian_axis(sigma, radius, w, iw);
  return separable_filter(w, w, iw, iw, 1 << (2 * kGaussianBits));
}

int gaussian_radius(const ParamSet& p) {
  long long r = p.get_int("radius");
  return r > 0 ? int(r) : int(std::ceil(3.0 * p.get_float("sigma")));
}

LinearFilter sobel_filter(bool dx) {
  const std::vector<double> diff{-1, 0, 1}, smooth{1, 2, 1};
  const std::vector<std::int32_t> idiff{-1, 0, 1}, ismooth{1, 2, 1};
  return dx ? separable_filter(diff, smooth, idiff, ismooth, 1) : separable_filter(smooth, diff, ismooth, idiff, 1);
}

// A matrix of rank 1 separates: w[y][x] == wy[y] * wx[x]. The integer weights must factor exactly (the u8
// contract: the row and column passes then give the same integer sums as the 2-D window), the float weights
// within rounding (the f32 contract compares within a relative tolerance). The integer row is the first non-zero
// row divided by the gcd of its entries, so both factors are integers; every other row must be an integer
// multiple of it. Sets f.separable when both hold.
void detect_rank1(LinearFilter& f, const std::vector<double>& values, double scale) {
  const int w = f.width(), h = f.height();
  auto at = [&](int y, int x) { return f.iw[std::size_t(y * w + x)]; };
  int y0 = 0;
  auto zero_row = [&](int y) {
    return std::all_of(f.iw.begin() + y * w, f.iw.begin() + (y + 1) * w, [](std::int32_t v) { return v == 0; });
  };
  while (y0 < h && zero_row(y0)) ++y0;
  if (y0 == h) return;  // all zeros: nothing to gain
  std::int64_t g = 0;
  for (int x = 0; x < w; ++x) g = std::gcd(g, std::int64_t(std::abs(std::int64_t(at(y0, x)))));
  int x0 = 0;
  while (at(y0, x0) == 0) ++x0;
  std::vector<std::int32_t> iwx(std::size_t(w), 0), iwy(std::size_t(h), 0);
  for (int x = 0; x < w; ++x) iwx[std::size_t(x)] = std::int32_t(at(y0, x) / g);
  for (int y = 0; y < h; ++y) {
    if (at(y, x0) % iwx[std::size_t(x0)] != 0) return;
    iwy[std::size_t(y)] = at(y, x0) / iwx[std::size_t(x0)];
    for (int x = 0; x < w; ++x)
      if (std::int64_t(iwy[std::size_t(y)]) * iwx[std::size_t(x)] != at(y, x)) return;
  }
  // The float factors, from the matrix itself: its row y0 and each row's multiple of it at column x0.
  double largest = 0;
  for (double v : values) largest = std::max(largest, std::abs(v));
  const double pivot = values[std::size_t(y0 * w + x0)];
  if (pivot == 0) return;
  std::vector<double> wx(std::size_t(w), 0.0), wy(std::size_t(h), 0.0);
  for (int x = 0; x < w; ++x) wx[std::size_t(x)] = values[std::size_t(y0 * w + x)] / pivot;
  for (int y = 0; y < h; ++y) wy[std::size_t(y)] = values[std::size_t(y * w + x0)];
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (std::abs(wy[std::size_t(y)] * wx[std::size_t(x)] - values[std::size_t(y * w + x)]) > 1e-12 * largest)
        return;
  LinearFilter::Separable sep;
  for (double v : wx) sep.wx.push_back(float(v));
  for (double v : wy) sep.wy.push_back(float(v * scale));
  sep.iwx = std::move(iwx);
  sep.iwy = std::move(iwy);
  f.separable = std::move(sep);
}

// A window from any matrix of doubles (separable when it has rank 1: detect_rank1). U8 path: integer weights used
// as they are when every weight is a (small) integer, else 16-bit fixed point.
LinearFilter matrix_filter(const Matrix& m, bool normalize) {
  double sum = std::accumulate(m.values.begin(), m.values.end(), 0.0);
  if (normalize && std::abs(sum) < 1e-12)
    throw_usage("cannot normalise: the matrix weights sum to 0",
                "set normalize=false (e.g. for edge detectors), or give weights with a non-zero sum");
  const double scale = normalize ? 1.0 / sum : 1.0;

  LinearFilter f;
  f.rx = m.cols / 2;
  f.ry = m.rows / 2;
  for (double v : m.values) f.w.push_back(float(v * scale));

  const bool integral = std::all_of(m.values.begin(), m.values.end(),
                                    [](double v) { return v == std::floor(v) && std::abs(v) < 1e6; });
  double abs_sum = 0;
  for (double v : m.values) abs_sum += std::abs(v);
  if (integral && 255.0 * abs_sum < 2147483647.0) {
    for (double v : m.values) f.iw.push_back(std::int32_t(v));
    std::int64_t divisor = normalize ? std::int64_t(std::llround(sum)) : 1;
    if (divisor < 0) {  // round_div needs a positive divisor: negate both sides
      divisor = -divisor;
      for (auto& v : f.iw) v = -v;
    }
    f.divisor = std::int32_t(divisor);
    detect_rank1(f, m.values, scale);
    return f;
  }
  // Fixed point: as many fraction bits (up to 16) as keep 255 * sum|iw| inside int32.
  int bits = 16;
  while (bits > 0 && 255.0 * abs_sum * std::abs(scale) * double(1 << bits) >= 2147483647.0) --bits;
  if (bits == 0)
    throw_usage("the matrix weights are too large for 8-bit images",
                "scale the weights down, or convert the image to f32 (--type f32)");
  for (double v : m.values) f.iw.push_back(std::int32_t(std::llround(v * scale * double(1 << bits))));
  f.divisor = 1 << bits;
  detect_rank1(f, m.values, scale);
  return f;
}

LinearFilter laplacian_filter(const std::string& neighbours) {
  Matrix m{3, 3, neighbours == "8" ? std::vector<double>{1, 1, 1, 1, -8, 1, 1, 1, 1}
                                   : std::vector<double>{0, 1, 0, 1, -4, 1, 0, 1, 0}};
  return matrix_filter(m, false);
}

}  // namespace

StencilPlan make_stencil_plan(const std::string& kernel_id, const ParamSet& p) {
  StencilPlan plan;
  plan.border = border_from_string(p.get_choice("border"));
  plan.border_value = float(p.get_float("border_value"));

  if (kernel_id == "box") {
    plan.a = box_filter(int(p.get_int("radius")));
  } else if (kernel_id == "gaussian") {
    plan.a = gaussian_filter(p.get_float("sigma"), gaussian_radius(p));
    plan.gaussian_sigma = p.get_float("sigma");
  } else if (kernel_id == "sobel") {
    const std::string& out = p.get_choice("output");
    if (out == "magnitude") {
      plan.kind = StencilPlan::Kind::GradientMagnitude;
      plan.a = sobel_filter(true);
      plan.b = sobel_filter(false);
    } else {
      plan.a = sobel_filter(out == "dx");
    }
  } else if (kernel_id == "laplacian") {
    plan.a = laplacian_filter(p.get_choice("neighbours"));
  } else if (kernel_id == "sharpen") {
    plan.kind = StencilPlan::Kind::UnsharpMask;
    plan.a = gaussian_filter(p.get_float("sigma"), gaussian_radius(p));
    plan.amount = float(p.get_float("amount"));
  } else if (kernel_id == "median") {
    plan.kind = StencilPlan::Kind::Median;
    plan.median_radius = int(p.get_int("radius"));
  } else if (kernel_id == "convolve") {
    plan.a = matrix_filter(p.get_matrix("matrix"), p.get_bool("normalize"));
  } else {
    throw Error(ErrorKind::Internal, "make_stencil_plan: '" + kernel_id + "' is not a stencil kernel");
  }
  return plan;
}

// ---- Border names ---------------------------------------------------------------------------------------------

namespace {
constexpr EnumName<Border> kBorderNames[] = {{Border::Replicate, "replicate"},
                                             {Border::Reflect, "reflect"},
                                             {Border::Reflect101, "reflect101"},
                                             {Border::Wrap, "wrap"},
                                             {Border::Constant, "constant"}};
}

const char* to_string(Border b) noexcept {
  return name_of(kBorderNames, b);
}

Border border_from_string(const std::string& s) {
  return value_named(kBorderNames, s, "border mode");
}

namespace {

// The largest |sum|, partial sums included, that a U8 image gives with this filter's integer weights: 255
// times the sum of |weights| of the 2-D window, and for a separable filter of its row pass too.
std::int64_t u8_sum_bound(const LinearFilter& f) {
  auto abs_sum = [](const std::vector<std::int32_t>& v) {
    std::int64_t s = 0;
    for (std::int32_t x : v) s += x < 0 ? -std::int64_t(x) : std::int64_t(x);
    return s;
  };
  std::int64_t bound = 255 * abs_sum(f.iw);
  if (f.separable) bound = std::max(bound, 255 * abs_sum(f.separable->iwx));
  return bound;
}

}  // namespace

bool u8_sums_fit_int16(const StencilPlan& plan) {
  const bool two = plan.kind == StencilPlan::Kind::GradientMagnitude;
  return u8_sum_bound(plan.a) <= INT16_MAX && (!two || u8_sum_bound(plan.b) <= INT16_MAX);
}

}  // namespace ks
