#include "report/sim_frames.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "report/colormap.hpp"

namespace ks::report {

Image state_levels(const Image& state, float lo, float hi) {
  if (state.channels() != 1 || (state.type() != ElemType::U8 && state.type() != ElemType::F32))
    throw Error(ErrorKind::Internal, "a simulation state is one channel of u8 or f32");
  Image out(state.width(), state.height(), 1, ElemType::U8);
  auto dst = out.elements<std::uint8_t>();
  const float scale = hi > lo ? 255.0f / (hi - lo) : 0.0f;
  auto level = [&](float v) {
    return std::uint8_t(std::lround(std::isfinite(v) ? std::clamp((v - lo) * scale, 0.0f, 255.0f) : 0.0f));
  };
  if (state.type() == ElemType::U8) {
    const auto src = state.elements<std::uint8_t>();
    for (std::size_t i = 0; i < src.size(); ++i) dst[i] = level(float(src[i]));
  } else {
    const auto src = state.elements<float>();
    for (std::size_t i = 0; i < src.size(); ++i) dst[i] = level(src[i]);
  }
  return out;
}

Image levels_to_rgb(const Image& levels, Colormap map) {
  const ColormapTable& table = colormap_table(map);
  Image out(levels.width(), levels.height(), 3, ElemType::U8);
  const auto src = levels.elements<std::uint8_t>();
  auto dst = out.elements<std::uint8_t>();
  for (std::size_t i = 0; i < src.size(); ++i) {
    const Rgba8& c = table[src[i]];
    dst[3 * i] = c[0], dst[3 * i + 1] = c[1], dst[3 * i + 2] = c[2];
  }
  return out;
}

std::array<Rgb8, 256> colormap_palette(Colormap map) {
  const ColormapTable& table = colormap_table(map);
  std::array<Rgb8, 256> p{};
  for (std::size_t i = 0; i < 256; ++i) p[i] = {table[i][0], table[i][1], table[i][2]};
  return p;
}

Colormap parse_colormap(const std::string& name) {
  return value_named(kColormapNames, name, "colormap",
                     "choose one of " + names_listed(kColormapNames, "", ", "));
}

StateRange state_range(const std::string& kernel, const Image& initial, const ParamSet& params) {
  if (kernel == "life") return {0, 255};
  if (kernel == "grayscott") return {0, 0.5f};
  float lo = 0, hi = 0;
  bool any = false;
  auto take = [&](float v) {
    lo = any ? std::min(lo, v) : v;
    hi = any ? std::max(hi, v) : v;
    any = true;
  };
  if (initial.type() == ElemType::F32)
    for (float v : initial.elements<float>())
      if (std::isfinite(v)) take(v);
  if (params.get_choice("boundary") == "fixed") take(float(params.get_float("boundary_value")));
  if (!(hi > lo)) hi = lo + 1;
  return {lo, hi};
}

SimPicture::SimPicture(Simulation& sim, const ParamSet& params, Colormap colormap)
    : kernel_(sim.kernel()), colormap_(colormap) {
  range_ = state_range(kernel_, kernel_ == "heat" ? sim.image() : Image(), params);
  if (kernel_ == "life")
    mapping_ = "live cells white, dead black";
  else if (kernel_ == "grayscott")
    mapping_ = "v from 0..0.5 to 0..255";
  else
    mapping_ = fmt::format("u from [{:.6g}, {:.6g}] (the initial range) to 0..255", range_.lo, range_.hi);
  if (colormap_ != Colormap::Gray) {
    if (kernel_ == "life")
      mapping_ = fmt::format("live cells at {0}'s high end, dead at its low end", colormap_name(colormap_));
    else
      mapping_ += fmt::format(", through {}", colormap_name(colormap_));
  }
}

Image SimPicture::levels(Simulation& sim) const {
  Image state = sim.image();
  if (kernel_ == "life") return state;  // already 0 and 255
  return state_levels(state, range_.lo, range_.hi);
}

Image SimPicture::of(Simulation& sim) const {
  Image l = levels(sim);
  return colormap_ == Colormap::Gray ? l : levels_to_rgb(l, colormap_);
}

std::filesystem::path frame_path(const std::filesystem::path& dir, long long index) {
  return dir / fmt::format("frame_{:05}.png", index);
}

void prepare_frames_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw_io(fmt::format("cannot write frames into '{}': it is a file", dir.string()),
             "give a folder for --frames");
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw_io(fmt::format("cannot create the frames folder '{}': {}", dir.string(), ec.message()),
             "check the path and its permissions");
}

}  // namespace ks::report
