#include "cli/sim_frames.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace ks::cli {

namespace {

Image to_gray8(const Image& field, float lo, float hi) {
  Image out(field.width(), field.height(), 1, ElemType::U8);
  const auto src = field.elements<float>();
  auto dst = out.elements<std::uint8_t>();
  const float scale = hi > lo ? 255.0f / (hi - lo) : 0.0f;
  for (std::size_t i = 0; i < src.size(); ++i) {
    const float v = std::isfinite(src[i]) ? (src[i] - lo) * scale : 0.0f;
    dst[i] = std::uint8_t(std::lround(std::clamp(v, 0.0f, 255.0f)));
  }
  return out;
}

}  // namespace

SimPicture::SimPicture(Simulation& sim, const ParamSet& params) : kernel_(sim.kernel()) {
  if (kernel_ == "life") {
    mapping_ = "live cells white, dead black";
    return;
  }
  if (kernel_ == "grayscott") {
    lo_ = 0, hi_ = 0.5f;
    mapping_ = "v from 0..0.5 to 0..255";
    return;
  }
  const Image u = sim.image();
  const auto v = u.elements<float>();
  const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  lo_ = *mn, hi_ = *mx;
  if (params.get_choice("boundary") == "fixed") {
    const float outside = float(params.get_float("boundary_value"));
    lo_ = std::min(lo_, outside), hi_ = std::max(hi_, outside);
  }
  mapping_ = fmt::format("u from [{:.6g}, {:.6g}] (the initial range) to 0..255", lo_, hi_);
}

Image SimPicture::of(Simulation& sim) const {
  Image state = sim.image();
  if (kernel_ == "life") return state;
  return to_gray8(state, lo_, hi_);
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

}  // namespace ks::cli
