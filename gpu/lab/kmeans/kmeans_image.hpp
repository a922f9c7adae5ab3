#pragma once
// Between images and the pixels k-means clusters. Colour is r, g, b; gray images cluster as r = g = b, and
// alpha is left out of the clustering and copied to the quantised image. 16-bit and float images are
// converted to 8 bits first (the palette is 8-bit colours either way).
#include <cstdint>
#include <span>
#include <vector>

#include "core/image.hpp"

namespace ks::lab {

// The image's pixels as 0x00BBGGRR words, row by row.
std::vector<std::uint32_t> kmeans_pixels(const Image& image);

// The quantised image: every pixel the palette colour (k * 3 bytes) of its label; the input's shape and alpha
// (u8 when the input was not).
Image quantised_image(const Image& input, std::span<const std::uint8_t> labels,
                      std::span<const std::uint8_t> palette);

}  // namespace ks::lab
