#pragma once
// PNG encoded row by row with libpng (Debian's libpng-dev 1.6, the library png_rows.cpp reads with), for
// save_image: 8-bit (U8) and 16-bit (U16) samples, 1 to 4 channels (grey, grey + alpha, RGB, RGBA).
// Why not stb_image_write: it filters the whole image into one buffer and deflates that into a second before the
// first byte is written (twice the image at the peak, and at most 2 GiB of filtered data), and it has no 16-bit
// PNG, for which this project once carried its own chunk writer. libpng streams: one row at a time, any size PNG
// can hold.
#include <cstdio>
#include <string>

#include "core/image.hpp"
#include "io/image_io.hpp"

namespace ks {

// Writes `image` (U8 or U16) to `file` as a PNG. libpng's errors (memory) become ks::Error naming `name`; a write
// that fails stops the encoding and stays sticky on `file` for the caller (write_file_atomically) to report.
// `progress` hears the rows written (about a hundred times); false from it stops with a Cancelled error.
void write_png_rows(std::FILE* file, const Image& image, const std::string& name, const SaveProgress& progress = {});

}  // namespace ks
