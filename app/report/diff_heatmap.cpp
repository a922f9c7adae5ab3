#include "report/diff_heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "core/error.hpp"
#include "report/sim_frames.hpp"

namespace ks::report {

namespace {

void check_diff_image(const Image& diff) {
  if (diff.channels() != 1 || diff.type() != ElemType::F32)
    throw_usage(fmt::format("a difference heatmap is made from a 1-channel f32 image, not a {}-channel {} one",
                            diff.channels(), to_string(diff.type())),
                "pass the image usercode::difference_image made");
}

}  // namespace

double diff_full_scale(const Image& diff) {
  check_diff_image(diff);
  double largest = 0;
  for (const float d : diff.elements<float>())
    if (std::isfinite(d)) largest = std::max(largest, double(d));
  return largest > 0 ? largest : 1.0;
}

Image diff_levels(const Image& diff, double full_scale) {
  check_diff_image(diff);
  if (!(std::isfinite(full_scale) && full_scale > 0))
    throw_usage(fmt::format("the heatmap's full scale {} is not a number above 0", full_scale),
                "give the difference that should reach the colormap's top, e.g. the largest one");
  Image levels(diff.width(), diff.height(), 1, ElemType::U8);
  const auto src = diff.elements<float>();
  auto dst = levels.elements<std::uint8_t>();
  for (std::size_t i = 0; i < src.size(); ++i) {
    const double d = src[i];
    if (d == 0) {
      dst[i] = 0;
    } else if (!std::isfinite(d)) {
      dst[i] = 255;
    } else {
      dst[i] = static_cast<std::uint8_t>(std::clamp(std::ceil(255.0 * std::fabs(d) / full_scale), 1.0, 255.0));
    }
  }
  return levels;
}

Image diff_heatmap(const Image& diff, double full_scale, Colormap map) {
  return levels_to_rgb(diff_levels(diff, full_scale), map);
}

}  // namespace ks::report
