#include "core/pixel_values.hpp"

#include <cstdint>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace ks {

void check_pixel_inside(const ImageShape& shape, int x, int y) {
  if (x < 0 || y < 0 || x >= shape.width || y >= shape.height)
    throw_usage("pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") lies outside the " +
                std::to_string(shape.width) + "x" + std::to_string(shape.height) + " image");
}

namespace {
template <class T>
std::array<double, 4> values_of(const void* pixel, int channels) {
  std::array<double, 4> out{};
  for (int c = 0; c < channels && c < 4; ++c) {
    T v;
    std::memcpy(&v, static_cast<const unsigned char*>(pixel) + std::size_t(c) * sizeof(T), sizeof(T));
    out[std::size_t(c)] = double(v);
  }
  return out;
}
}  // namespace

std::array<double, 4> pixel_values(const ImageShape& shape, const void* pixel) {
  switch (shape.type) {
    case ElemType::U8: return values_of<std::uint8_t>(pixel, shape.channels);
    case ElemType::U16: return values_of<std::uint16_t>(pixel, shape.channels);
    case ElemType::F32: return values_of<float>(pixel, shape.channels);
  }
  return {};
}

std::array<double, 4> read_pixel(const Image& image, int x, int y) {
  check_pixel_inside(image.shape(), x, y);
  const std::size_t pixel_bytes = std::size_t(image.channels()) * elem_size(image.type());
  return pixel_values(image.shape(), image.data() + std::size_t(y) * image.shape().row_bytes() + std::size_t(x) * pixel_bytes);
}

}  // namespace ks
