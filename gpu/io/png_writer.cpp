#include "io/png_writer.hpp"

#include <png.h>

#include <bit>
#include <csetjmp>
#include <cstdint>
#include <cstdio>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/png_support.hpp"

namespace ks {

namespace {

int colour_type(int channels) {
  switch (channels) {
    case 1: return PNG_COLOR_TYPE_GRAY;
    case 2: return PNG_COLOR_TYPE_GRAY_ALPHA;
    case 3: return PNG_COLOR_TYPE_RGB;
    default: return PNG_COLOR_TYPE_RGB_ALPHA;
  }
}

enum class Step { Done, Failed, Cancelled };

// Holds only trivially destructible locals, and the only C++ call between setjmp and a possible longjmp is the
// progress callback, never from inside libpng: a longjmp skips no destructor (as in png_rows.cpp).
Step write_all(png_structp png, png_infop info, std::FILE* file, const std::byte* pixels, std::size_t stride,
               int width, int height, int depth, int channels, const SaveProgress& progress) {
  if (setjmp(png_jmpbuf(png))) return Step::Failed;
  png_init_io(png, file);
  // The sides an Image can have (libpng's own default stops at a million pixels).
  png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
  // zlib level 2 with libpng's adaptive filters: a sixth of the time of zlib's default level, which saves
  // 15% of the bytes (docs/PERF.md, issue 15). An export should not keep a class waiting for the last 15%.
  png_set_compression_level(png, 2);
  png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), depth, colour_type(channels),
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (depth == 16 && std::endian::native == std::endian::little) png_set_swap(png);  // PNG's samples are big-endian
  for (int y = 0; y < height; ++y) {
    png_write_row(png, reinterpret_cast<png_const_bytep>(pixels + std::size_t(y) * stride));
    if (!png_support::report_rows(progress, std::uint32_t(y + 1), std::uint32_t(height))) return Step::Cancelled;
  }
  png_write_end(png, nullptr);
  return Step::Done;
}

struct PngWrite {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~PngWrite() { png_destroy_write_struct(&png, info ? &info : nullptr); }
};

}  // namespace

void write_png_rows(std::FILE* file, const Image& image, const std::string& name, const SaveProgress& progress) {
  if (image.type() != ElemType::U8 && image.type() != ElemType::U16)
    throw Error(ErrorKind::Internal, "write_png_rows takes U8 or U16 samples");
  if (image.channels() < 1 || image.channels() > 4)
    throw Error(ErrorKind::Internal, "write_png_rows takes 1 to 4 channels");
  png_support::PngError error;
  PngWrite p;
  p.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, png_support::on_error, png_support::on_warning);
  if (p.png) p.info = png_create_info_struct(p.png);
  if (!p.png || !p.info) throw Error(ErrorKind::OutOfMemory, "libpng could not start writing a PNG");
  const int depth = image.type() == ElemType::U16 ? 16 : 8;
  const Step step = write_all(p.png, p.info, file, image.data(), image.shape().row_bytes(), image.width(),
                              image.height(), depth, image.channels(), progress);
  if (step == Step::Done) return;
  if (step == Step::Cancelled) throw Error(ErrorKind::Cancelled, fmt::format("saving '{}' was cancelled", name));
  // A failed write (a full disk): the error stays on the stream, where the caller's check names its cause.
  if (std::ferror(file)) return;
  throw Error(ErrorKind::OutOfMemory, fmt::format("libpng could not encode '{}': {}", name, error.message),
                "this usually means memory ran out; close other programs or save a smaller image");
}

}  // namespace ks
