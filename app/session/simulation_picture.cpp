#include "session/simulation_picture.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "render/colormap.hpp"

namespace ks::app {

SimPicture suggested_picture(const std::string& kernel, const Image& initial, const ParamSet& params) {
  SimPicture p;
  if (kernel == "life") {
    p.range_min = 0, p.range_max = 255;
    return p;
  }
  if (kernel == "grayscott") {
    p.colormap = ui::Colormap::Viridis;
    p.range_min = 0, p.range_max = 0.5f;
    return p;
  }
  // Heat: the explicit scheme never leaves the range of the initial state and the fixed boundary, so that range
  // shows every later state without saturating.
  float lo = 0, hi = 0;
  bool any = false;
  if (initial.type() == ElemType::F32) {
    for (float v : initial.elements<float>()) {
      if (!std::isfinite(v)) continue;
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  }
  if (params.get_choice("boundary") == "fixed") {
    const float outside = float(params.get_float("boundary_value"));
    lo = any ? std::min(lo, outside) : outside;
    hi = any ? std::max(hi, outside) : outside;
  }
  if (!(hi > lo)) hi = lo + 1;
  p.colormap = lo < 0 && hi > 0 ? ui::Colormap::Diverging : ui::Colormap::Magma;
  if (p.colormap == ui::Colormap::Diverging) hi = std::max(hi, -lo), lo = -hi;
  p.range_min = lo, p.range_max = hi;
  return p;
}

Image colorize(const Image& state, const SimPicture& picture) {
  if (state.channels() != 1 || (state.type() != ElemType::U8 && state.type() != ElemType::F32))
    throw Error(ErrorKind::Internal, "a simulation state is one channel of u8 or f32");
  const ui::ColormapTable& table = ui::colormap_table(picture.colormap);
  const float lo = picture.range_min;
  const float scale = picture.range_max > lo ? 255.0f / (picture.range_max - lo) : 0.0f;
  Image out(state.width(), state.height(), 3, ElemType::U8);
  auto dst = out.elements<std::uint8_t>();
  auto put = [&](std::size_t i, float v) {
    const float t = std::isfinite(v) ? std::clamp((v - lo) * scale, 0.0f, 255.0f) : 0.0f;
    const ui::Rgba8& c = table[std::size_t(std::lround(t))];
    dst[3 * i] = c[0], dst[3 * i + 1] = c[1], dst[3 * i + 2] = c[2];
  };
  if (state.type() == ElemType::U8) {
    const auto src = state.elements<std::uint8_t>();
    for (std::size_t i = 0; i < src.size(); ++i) put(i, float(src[i]));
  } else {
    const auto src = state.elements<float>();
    for (std::size_t i = 0; i < src.size(); ++i) put(i, src[i]);
  }
  return out;
}

}  // namespace ks::app
