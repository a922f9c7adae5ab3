#include "render/value_range.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ks::ui {

ValueRange natural_range(ElemType type) {
  switch (type) {
    case ElemType::U8: return {0, 255};
    case ElemType::U16: return {0, 65535};
    case ElemType::F32: return {0, 1};
  }
  return {0, 1};
}

namespace {
template <class T>
std::optional<ValueRange> range_of(const Image& image) {
  const int channels = image.channels();
  const int colour = channels == 4 ? 3 : channels;
  bool any = false;
  double lo = 0, hi = 0;
  const std::span<const T> v = image.elements<T>();
  for (std::size_t i = 0; i < v.size(); i += std::size_t(channels))
    for (int c = 0; c < colour; ++c) {
      const double x = double(v[i + std::size_t(c)]);
      if (!std::isfinite(x)) continue;
      lo = any ? std::min(lo, x) : x;
      hi = any ? std::max(hi, x) : x;
      any = true;
    }
  if (!any) return std::nullopt;
  return ValueRange{float(lo), float(hi)};
}
}  // namespace

std::optional<ValueRange> data_range(const Image& image) {
  switch (image.type()) {
    case ElemType::U8: return range_of<std::uint8_t>(image);
    case ElemType::U16: return range_of<std::uint16_t>(image);
    case ElemType::F32: return range_of<float>(image);
  }
  return std::nullopt;
}

ValueRange suggested_range(const ImageShape& shape, bool signed_output, const Image* host_output) {
  if (!signed_output || shape.type != ElemType::F32) return natural_range(shape.type);
  float reach = 0;
  if (host_output)
    if (auto r = data_range(*host_output)) reach = std::max(std::abs(r->min), std::abs(r->max));
  if (!(reach > 0)) reach = 1;
  return {-reach, reach};
}

}  // namespace ks::ui
