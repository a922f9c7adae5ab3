#pragma once
// An independent, deliberately plain reference for the CPU stencil tests: the image is first copied into an
// explicitly padded array (the border rules written out as OpenCV draws them, not through ks::remap), then
// every output is a direct loop over its window in double. Slow, obvious, and sharing no code with
// gpu/stencil/cpu/ beyond the public types.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/image.hpp"
#include "stencil/border.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::test {

inline double element(const Image& img, int x, int y, int c) {
  const std::size_t i = (std::size_t(y) * img.width() + x) * img.channels() + c;
  return img.type() == ElemType::U8 ? double(img.elements<std::uint8_t>()[i])
                                    : double(img.elements<float>()[i]);
}

// Which source index each position -pad .. n-1+pad reads (-1: the constant border), by repeating the pattern
// of the border mode:  replicate aaa|abcd|ddd, reflect ..dcba|abcd|dcba.., reflect101 ..dcb|abcd|cba..,
// wrap ..abcd|abcd|abcd..
inline std::vector<int> extended_indices(int n, int pad, Border border) {
  std::vector<int> period;  // one period of the repeating pattern, starting at position 0
  for (int i = 0; i < n; ++i) period.push_back(i);
  if (border == Border::Reflect)
    for (int i = n - 1; i >= 0; --i) period.push_back(i);
  if (border == Border::Reflect101)
    for (int i = n - 2; i >= 1; --i) period.push_back(i);
  const int len = int(period.size());
  std::vector<int> out;
  for (int p = -pad; p < n + pad; ++p) {
    if (p >= 0 && p < n) {
      out.push_back(p);
    } else if (border == Border::Constant) {
      out.push_back(-1);
    } else if (border == Border::Replicate) {
      out.push_back(p < 0 ? 0 : n - 1);
    } else {
      int q = p;
      while (q < 0) q += len;
      out.push_back(period[std::size_t(q % len)]);
    }
  }
  return out;
}

// The image copied into a (w + 2 px) x (h + 2 py) array of doubles, borders filled in.
struct PaddedImage {
  int w = 0, h = 0, ch = 0, px = 0, py = 0;
  std::vector<double> v;
  // (x, y) in image coordinates, -px <= x < w + px.
  double at(int x, int y, int c) const {
    return v[(std::size_t(y + py) * std::size_t(w + 2 * px) + std::size_t(x + px)) * ch + c];
  }
};

inline PaddedImage pad_image(const Image& in, int px, int py, Border border, double border_value) {
  PaddedImage p{in.width(), in.height(), in.channels(), px, py, {}};
  const auto xs = extended_indices(in.width(), px, border);
  const auto ys = extended_indices(in.height(), py, border);
  for (int sy : ys)
    for (int sx : xs)
      for (int c = 0; c < in.channels(); ++c)
        p.v.push_back(sx < 0 || sy < 0 ? border_value : element(in, sx, sy, c));
  return p;
}

// out(x, y, c) = sum over the window of weights[j][i] * in(x + i - rx, y + j - ry, c) (correlation, as
// OpenCV's filter2D), in double. Row-major weights, (2ry+1) x (2rx+1).
inline std::vector<double> correlate(const Image& in, int rx, int ry, const std::vector<double>& weights,
                                     Border border, double border_value) {
  const PaddedImage p = pad_image(in, rx, ry, border, border_value);
  std::vector<double> out;
  for (int y = 0; y < in.height(); ++y)
    for (int x = 0; x < in.width(); ++x)
      for (int c = 0; c < in.channels(); ++c) {
        double s = 0;
        for (int j = -ry; j <= ry; ++j)
          for (int i = -rx; i <= rx; ++i)
            s += weights[std::size_t((j + ry) * (2 * rx + 1) + i + rx)] * p.at(x + i, y + j, c);
        out.push_back(s);
      }
  return out;
}

// Integer sums -> U8 the way the contract says: nearest, halves up, saturated.
inline Image u8_from_sums(const ImageShape& shape, const std::vector<double>& sums, double divisor) {
  Image img(shape);
  auto px = img.elements<std::uint8_t>();
  for (std::size_t i = 0; i < sums.size(); ++i)
    px[i] = std::uint8_t(std::clamp(std::floor(sums[i] / divisor + 0.5), 0.0, 255.0));
  return img;
}

inline Image f32_from_values(const ImageShape& shape, const std::vector<double>& values) {
  Image img(shape);
  auto px = img.elements<float>();
  for (std::size_t i = 0; i < values.size(); ++i) px[i] = float(values[i]);
  return img;
}

// Median of each window by sorting it.
inline Image median_by_sorting(const Image& in, int r, Border border, double border_value) {
  const PaddedImage p = pad_image(in, r, r, border, border_value);
  std::vector<double> out;
  for (int y = 0; y < in.height(); ++y)
    for (int x = 0; x < in.width(); ++x)
      for (int c = 0; c < in.channels(); ++c) {
        std::vector<double> win;
        for (int j = -r; j <= r; ++j)
          for (int i = -r; i <= r; ++i) win.push_back(p.at(x + i, y + j, c));
        std::sort(win.begin(), win.end());
        out.push_back(win[win.size() / 2]);
      }
  return in.type() == ElemType::U8 ? u8_from_sums(in.shape(), out, 1.0) : f32_from_values(in.shape(), out);
}

// One channel of an interleaved image, as a 1-channel image.
inline Image channel_of(const Image& in, int c) {
  Image out(in.width(), in.height(), 1, in.type());
  const std::size_t n = in.shape().pixel_count(), es = elem_size(in.type());
  for (std::size_t i = 0; i < n; ++i)
    std::copy_n(in.data() + (i * in.channels() + c) * es, es, out.data() + i * es);
  return out;
}

// ---- Plans built by hand (independent of make_stencil_plan)
// ----------------------------------------------------

// A linear filter from integer weights (row-major, (2ry+1) x (2rx+1)); float weights are iw / divisor.
inline LinearFilter int_filter(int rx, int ry, const std::vector<std::int32_t>& iw, std::int32_t divisor) {
  LinearFilter f;
  f.rx = rx;
  f.ry = ry;
  f.iw = iw;
  f.divisor = divisor;
  for (std::int32_t v : iw) f.w.push_back(float(double(v) / divisor));
  return f;
}

// The outer product of integer column and row vectors, with its separable factors (float factors: iwx / dx
// and iwy / dy with dx * dy = divisor).
inline LinearFilter separable_int_filter(const std::vector<std::int32_t>& iwx, std::int32_t dx,
                                         const std::vector<std::int32_t>& iwy, std::int32_t dy) {
  std::vector<std::int32_t> iw;
  for (std::int32_t vy : iwy)
    for (std::int32_t vx : iwx) iw.push_back(vy * vx);
  LinearFilter f = int_filter(int(iwx.size() / 2), int(iwy.size() / 2), iw, dx * dy);
  LinearFilter::Separable s;
  s.iwx = iwx;
  s.iwy = iwy;
  for (std::int32_t v : iwx) s.wx.push_back(float(double(v) / dx));
  for (std::int32_t v : iwy) s.wy.push_back(float(double(v) / dy));
  f.separable = s;
  return f;
}

inline LinearFilter box_filter(int r) {
  return separable_int_filter(std::vector<std::int32_t>(std::size_t(2 * r + 1), 1), 2 * r + 1,
                              std::vector<std::int32_t>(std::size_t(2 * r + 1), 1), 2 * r + 1);
}

inline StencilPlan linear_plan(LinearFilter f, Border border = Border::Reflect101, float border_value = 0.f) {
  StencilPlan p;
  p.kind = StencilPlan::Kind::Linear;
  p.a = std::move(f);
  p.border = border;
  p.border_value = border_value;
  return p;
}

inline std::vector<double> weights_of(const LinearFilter& f) {
  std::vector<double> w;
  for (std::int32_t v : f.iw) w.push_back(double(v));
  return w;
}

inline std::vector<Border> all_borders() {
  return {Border::Replicate, Border::Reflect, Border::Reflect101, Border::Wrap, Border::Constant};
}

}  // namespace ks::test
