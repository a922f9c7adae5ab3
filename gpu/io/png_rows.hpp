#pragma once
// PNG decoded row by row with libpng (Debian's libpng-dev 1.6, its row API: png_read_row), for load_image. stb_image inflates the whole file into a buffer the size of
// the decoded image and filters that into a second one, then load_image copied it into the Image: three times
// the image at the peak (a 30000 x 30000 grey PNG is 900 MB decoded) and no word of progress for a minute. Here
// the Image is the only large buffer: libpng decodes each row straight into it, progress is reported every few
// rows and the load can stop there. libpng's errors longjmp out of read_header/read_rows (png_rows.cpp), which own
// nothing; decode_png_rows turns them into ks::Error once libpng's frames are gone.
//
// Takes the PNGs photographs, scans and renderers write: non-interlaced, 8 or 16 bits, grey, grey + alpha, RGB
// or RGBA, without a tRNS chunk. Anything else (palettes, 1/2/4-bit samples, Adam7 interlacing, tRNS, Apple's
// CgBI, whose first chunk is not IHDR) returns nullopt before any pixel is decoded (and before the Image is
// allocated), and load_image hands the file to stb_image, whose results
// these match exactly (same channels, same types, 16-bit samples in host byte order).
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "core/image.hpp"
#include "io/image_io.hpp"

namespace ks {

// Reads up to `size` bytes from the start of the file onwards; fewer only at its end (0: nothing left).
using PngReader = std::function<std::size_t(unsigned char* data, std::size_t size)>;

// Io errors name the file (`name`) and say what is wrong (truncated, damaged); a Cancelled error when
// `progress` returned false. The caller has checked the size against its limits (from the same header).
std::optional<Image> decode_png_rows(const PngReader& read, const std::string& name, const LoadProgress& progress);

}  // namespace ks
