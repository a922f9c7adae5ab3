#pragma once
// Between images and the pixels k-means clusters. Pixels are 32-bit words 0xAABBGGRR: the colour r, g, b
// (gray images as r = g = b) and the alpha (255 for images without one), which the clustering leaves out and
// the quantised image keeps. 16-bit and float images are converted to 8 bits first (the palette is 8-bit
// colours either way).
#include <cstdint>
#include <span>
#include <vector>

#include "core/image.hpp"

namespace ks::lab {

// The image's pixels row by row into `out` (width * height words).
void fill_kmeans_pixels(const Image& image, std::span<std::uint32_t> out);
std::vector<std::uint32_t> kmeans_pixels(const Image& image);

// The quantised image: every pixel the palette colour (k * 3 bytes) of its label; RGBA when some pixel is not
// opaque (its alpha kept), else RGB; u8.
Image quantised_image(std::span<const std::uint32_t> pixels, int width, int height,
                      std::span<const std::uint32_t> labels, std::span<const std::uint8_t> palette);

}  // namespace ks::lab
