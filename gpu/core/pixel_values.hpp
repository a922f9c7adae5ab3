#pragma once
// One pixel's channel values as numbers in the image's own units (u8 0..255, u16 0..65535, f32 as stored), for
// the pixel inspector: host images and device results read the same way.
#include <array>

#include "core/image.hpp"

namespace ks {

// Throws a usage Error naming the image's size when (x, y) lies outside it.
void check_pixel_inside(const ImageShape& shape, int x, int y);

// `pixel` points at the pixel's first channel; channels past shape.channels are 0.
std::array<double, 4> pixel_values(const ImageShape& shape, const void* pixel);

// The pixel at (x, y) of a host image (checked like check_pixel_inside).
std::array<double, 4> read_pixel(const Image& image, int x, int y);

}  // namespace ks
