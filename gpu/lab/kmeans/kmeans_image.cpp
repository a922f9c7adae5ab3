#include "lab/kmeans/kmeans_image.hpp"

#include "core/error.hpp"
#include "lab/kmeans/kmeans_math.hpp"

namespace ks::lab {

namespace {

Image as_u8(const Image& image) {
  return image.type() == ElemType::U8 ? image : convert_type(image, ElemType::U8);
}

bool has_colour(int channels) {
  return channels >= 3;
}

}  // namespace

std::vector<std::uint32_t> kmeans_pixels(const Image& image) {
  const Image u8 = as_u8(image);
  const int ch = u8.channels();
  if (ch < 1 || ch > 4) throw_usage("kmeans takes images of 1 to 4 channels");
  const auto v = u8.elements<std::uint8_t>();
  std::vector<std::uint32_t> pixels(u8.shape().pixel_count());
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    const std::uint8_t* p = v.data() + i * std::size_t(ch);
    const std::uint32_t r = p[0], g = has_colour(ch) ? p[1] : r, b = has_colour(ch) ? p[2] : r;
    pixels[i] = r | (g << 8) | (b << 16);
  }
  return pixels;
}

Image quantised_image(const Image& input, std::span<const std::uint8_t> labels,
                      std::span<const std::uint8_t> palette) {
  const Image u8 = as_u8(input);
  if (labels.size() != u8.shape().pixel_count())
    throw Error(ErrorKind::Internal, "quantised_image: labels and image differ in size");
  Image out(u8.shape());
  const int ch = u8.channels();
  const auto in = u8.elements<std::uint8_t>();
  auto o = out.elements<std::uint8_t>();
  const int colour = has_colour(ch) ? kColourChannels : 1;  // gray: the centroid's r (= g = b)
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const std::size_t at = i * std::size_t(ch), c = std::size_t(labels[i]) * kColourChannels;
    if (c + kColourChannels > palette.size())
      throw Error(ErrorKind::Internal, "quantised_image: label beyond palette");
    for (int j = 0; j < colour; ++j) o[at + j] = palette[c + j];
    for (int j = colour; j < ch; ++j) o[at + j] = in[at + j];  // alpha
  }
  return out;
}

}  // namespace ks::lab
