#pragma once
// What the PNG reader (png_rows.cpp) and writer (png_writer.cpp) share: libpng's error text captured for the
// ks::Error they throw once libpng's frames are gone, and how often their row loops report progress.
#include <png.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>

namespace ks::png_support {

// libpng's last error, filled by on_error: pass a PngError as the error pointer of png_create_*_struct.
struct PngError {
  char message[256] = {};
};

// libpng reports errors by longjmp: the text is kept, then control goes back to the setjmp.
inline void on_error(png_structp png, png_const_charp message) {
  PngError& e = *static_cast<PngError*>(png_get_error_ptr(png));
  std::snprintf(e.message, sizeof e.message, "%s", message ? message : "error");
  png_longjmp(png, 1);
}

inline void on_warning(png_structp, png_const_charp) {}  // benign problems (unknown chunks, odd ancillary data)

// Row `done` of `total` is finished: reports about a hundred times over the image and never less often than
// every 64 rows. False when `progress` asks to stop.
inline bool report_rows(const std::function<bool(double)>& progress, std::uint32_t done, std::uint32_t total) {
  const std::uint32_t every = std::max<std::uint32_t>(1, std::min<std::uint32_t>(total / 100, 64));
  return !progress || (done % every != 0 && done != total) || progress(double(done) / total);
}

}  // namespace ks::png_support
