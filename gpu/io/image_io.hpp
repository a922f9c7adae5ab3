#pragma once
// Loading and saving images through stb_image / stb_image_write (Debian's libstb), and libpng for the PNGs it
// reads and writes row by row (png_rows.hpp, png_writer.hpp).
//
// Loading keeps what the file holds: its channel count (1-4) and its depth (8-bit -> U8, 16-bit PNG/PSD/PNM ->
// U16, Radiance HDR -> F32, linear). A .npy file (by its magic or its extension; npy_image.hpp) is a u8 or f32
// array of shape H x W or H x W x C, C = 1..4, taken as it is. GIF gives its first frame; PSD its composite, as
// RGBA. Errors are Io errors that say which file and what is wrong with it (missing, empty, not an image, corrupt, truncated, too large).
// stb_image cannot notice every truncation: a cut RLE TGA, PSD or HDR file may load with its tail zeroed.
//
// Saving picks the format from the extension; what each format can hold:
//   .png         1-4 channels; 8-bit (U8, F32 converted) or 16-bit (U16); SaveOptions::png_bit_depth overrides.
//   .jpg/.jpeg   8-bit; stored as RGB (gray is stored as RGB too), the alpha of 2/4-channel images is dropped;
//                at most 65535x65535.
//   .bmp         8-bit; 1/3 channels as RGB, 2/4 channels as RGBA (gray replicated).
//   .tga         8-bit; 1-4 channels as they are; at most 65535x65535.
//   .hdr         float RGB (U8/U16 converted to 0..1); gray is stored as RGB, alpha is dropped; negatives and NaN
//                become 0; about 1% precision.
//   .npy         U8 ('|u1') and F32 ('<f4') values as they are, H x W (1 channel) or H x W x C; U16 is refused.
// Converting to 8 bits (PNG, JPEG, BMP, TGA) rounds to nearest and saturates (F32 outside 0..1, NaN -> 0). Files
// are written atomically (see atomic_file.hpp): a failure leaves no partial file and an existing file keeps its content. Bad requests
// (unknown extension, empty image, options out of range, a size the format cannot hold) are Usage errors.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "core/image.hpp"

namespace ks {

struct LoadLimits {
  // Largest decoded image accepted, checked from the header before anything is decoded: a corrupt or hostile
  // header cannot make us allocate absurd amounts of memory.
  std::size_t max_bytes = std::size_t(4) << 30;
};

// How far a load is, 0..1, from the decoding thread every few rows; returning false stops it with a Cancelled
// error. Only PNGs decoded row by row report as they go (gpu/io/png_rows.hpp: the common 8/16-bit kinds, which
// also keep the decoded image the only large buffer); other files are quick to decode or report nothing.
using LoadProgress = std::function<bool(double fraction)>;

Image load_image(const std::filesystem::path& path, const LoadLimits& limits = {}, const LoadProgress& progress = {});
// `name_for_messages` stands in for the file name in error messages (e.g. "embedded sample", a URL).
Image load_image_from_memory(std::span<const unsigned char> bytes, const std::string& name_for_messages,
                             const LoadLimits& limits = {});

// Called as a PNG's rows are written, with the fraction done; returning false stops the save (a Cancelled error,
// and no file). The other formats are written in one call and report nothing.
using SaveProgress = std::function<bool(double fraction)>;

struct SaveOptions {
  int jpeg_quality = 95;            // 1..100
  std::optional<int> png_bit_depth = std::nullopt;  // 8 or 16; default: 16 for U16, 8 otherwise. Only for .png.
  SaveProgress progress = nullptr;
};

void save_image(const Image& image, const std::filesystem::path& path, const SaveOptions& options = {});

// One-line lists for help texts and error hints.
std::string supported_load_formats();
std::string supported_save_formats();

}  // namespace ks
