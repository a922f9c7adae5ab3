#include "lab/kmeans/kmeans_image.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "lab/kmeans/kmeans_math.hpp"

namespace ks::lab {

void fill_kmeans_pixels(const Image& image, std::span<std::uint32_t> out) {
  const Image u8 = image.type() == ElemType::U8 ? Image() : convert_type(image, ElemType::U8);
  const Image& src = image.type() == ElemType::U8 ? image : u8;
  const int ch = src.channels();
  if (ch < 1 || ch > 4) throw_usage("kmeans takes images of 1 to 4 channels");
  if (out.size() != src.shape().pixel_count())
    throw Error(ErrorKind::Internal, "fill_kmeans_pixels: wrong size");
  const bool colour = ch >= 3, alpha = ch == 2 || ch == 4;
  const auto v = src.elements<std::uint8_t>();
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint8_t* p = v.data() + i * std::size_t(ch);
    const std::uint32_t r = p[0], g = colour ? p[1] : r, b = colour ? p[2] : r, a = alpha ? p[ch - 1] : 255u;
    out[i] = r | (g << 8) | (b << 16) | (a << 24);
  }
}

std::vector<std::uint32_t> kmeans_pixels(const Image& image) {
  std::vector<std::uint32_t> px(image.shape().pixel_count());
  fill_kmeans_pixels(image, px);
  return px;
}

Image quantised_image(std::span<const std::uint32_t> pixels, int width, int height,
                      std::span<const std::uint32_t> labels, std::span<const std::uint8_t> palette) {
  const std::size_t n = std::size_t(width) * std::size_t(height);
  if (pixels.size() != n || labels.size() != n)
    throw Error(ErrorKind::Internal, "quantised_image: pixels, labels and size differ");
  const bool alpha =
      std::any_of(pixels.begin(), pixels.end(), [](std::uint32_t p) { return (p >> 24) != 255u; });
  const int ch = alpha ? 4 : 3;
  Image out(width, height, ch, ElemType::U8);
  auto o = out.elements<std::uint8_t>();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = std::size_t(labels[i]) * kColourChannels, at = i * std::size_t(ch);
    if (c + kColourChannels > palette.size())
      throw Error(ErrorKind::Internal, "quantised_image: a label beyond the palette");
    for (int j = 0; j < kColourChannels; ++j) o[at + j] = palette[c + j];
    if (alpha) o[at + 3] = std::uint8_t(pixels[i] >> 24);
  }
  return out;
}

}  // namespace ks::lab
