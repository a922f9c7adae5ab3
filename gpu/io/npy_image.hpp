#pragma once
// Images as NumPy .npy files, so that results can be checked numerically: u8 ('|u1') and f32 ('<f4') arrays
// of shape H x W (one channel) or H x W x C (C = 1..4 interleaved channels, the layout of ks::Image), C
// order. The image load and save functions (image_io.hpp) come here for .npy files, so every place that takes
// or writes an image takes and writes these too.
//
// Anything else is an Io Error naming the file, what it holds and what is taken: other element types (f64,
// i16, bool, u16, big-endian), Fortran order, other dimensions or channel counts, an empty shape, data
// shorter or longer than the shape. Written atomically (temp file + rename).
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>

#include "core/image.hpp"

namespace ks {

// `max_bytes`: the largest image accepted, checked from the header before anything is read (LoadLimits).
Image read_npy_image(const std::filesystem::path& path, std::size_t max_bytes);
Image parse_npy_image(std::span<const std::byte> bytes, const std::string& what, std::size_t max_bytes);

// U8 and F32 images as they are (1 channel: H x W; more: H x W x C); a U16 image is a Usage Error.
void write_npy_image(const Image& image, const std::filesystem::path& path);

// Whether bytes start with the .npy magic (\x93NUMPY).
bool starts_like_npy(std::span<const unsigned char> head);

}  // namespace ks
