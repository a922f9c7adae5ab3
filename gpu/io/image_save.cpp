// save_image: the format from the extension, checks of the request against what the format can hold, then the
// encoding (PNG row by row through libpng, png_writer.hpp; .npy as it is, npy_image.hpp; the others through
// stb_image_write) into an atomically written file.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <stb_image_write.h>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/image_io.hpp"
#include "io/npy_image.hpp"
#include "io/png_writer.hpp"

namespace ks {

namespace fs = std::filesystem;

std::string supported_save_formats() {
  return ".png (8/16-bit), .jpg/.jpeg, .bmp, .tga, .hdr, .npy (u8/f32 as they are)";
}

namespace {

enum class Format { Png, Jpeg, Bmp, Tga, Hdr, Npy };

const char* format_name(Format f) {
  switch (f) {
    case Format::Png: return "PNG";
    case Format::Jpeg: return "JPEG";
    case Format::Bmp: return "BMP";
    case Format::Tga: return "TGA";
    case Format::Hdr: return "HDR";
    case Format::Npy: return "NPY";
  }
  return "?";
}

Format format_for(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  if (ext == ".png") return Format::Png;
  if (ext == ".jpg" || ext == ".jpeg") return Format::Jpeg;
  if (ext == ".bmp") return Format::Bmp;
  if (ext == ".tga") return Format::Tga;
  if (ext == ".hdr") return Format::Hdr;
  if (ext == ".npy") return Format::Npy;
  const std::string what = ext.empty() ? std::string("it has no extension") : "unknown extension '" + ext + "'";
  throw_usage(fmt::format("cannot save '{}': {}", path.string(), what),
              "end the file name with one of " + supported_save_formats());
}

// ---- stb_image_write glue ----

void write_to_file(void* context, void* data, int size) {
  // Errors are sticky on the FILE; write_file_atomically checks them once at the end.
  std::fwrite(data, 1, std::size_t(size), static_cast<std::FILE*>(context));
}

void check_encoded(int ok, Format format) {
  if (!ok) {
    throw Error(ErrorKind::OutOfMemory, fmt::format("stb_image_write could not encode the {} data", format_name(format)),
                "this usually means memory ran out; close other programs or save a smaller image");
  }
}

// Radiance HDR stores non-negative values only; negatives and NaN become 0, as when converting to integers.
Image hdr_pixels(const Image& img) {
  Image f = convert_type(img, ElemType::F32);
  for (float& v : f.elements<float>()) {
    if (!(v > 0.0f)) v = 0.0f;
  }
  return f;
}

void validate(const Image& image, const fs::path& path, Format format, const SaveOptions& options) {
  if (image.empty()) {
    throw_usage(fmt::format("cannot save '{}': the image is empty ({}x{})", path.string(), image.width(),
                            image.height()),
                "load or compute an image first");
  }
  if (options.png_bit_depth && format != Format::Png) {
    throw_usage(fmt::format("cannot save '{}': a PNG bit depth was given for a {} file", path.string(),
                            format_name(format)),
                "leave the bit depth out, or save as .png");
  }
  if (options.png_bit_depth && *options.png_bit_depth != 8 && *options.png_bit_depth != 16) {
    throw_usage(fmt::format("cannot save '{}': PNG bit depth {} is not supported", path.string(),
                            *options.png_bit_depth),
                "use 8 or 16");
  }
  if (format == Format::Jpeg && (options.jpeg_quality < 1 || options.jpeg_quality > 100)) {
    throw_usage(fmt::format("cannot save '{}': JPEG quality {} is out of range", path.string(), options.jpeg_quality),
                "use a quality from 1 to 100");
  }
}

// Limits of the formats and of stb_image_write, checked up front: stb would otherwise write wrapped-around sizes.
void check_encoder_limits(const Image& image, const fs::path& path, Format format) {
  const int max_side = (format == Format::Jpeg || format == Format::Tga) ? 65535 : INT_MAX;  // 16-bit size fields
  if (image.width() > max_side || image.height() > max_side) {
    throw_usage(fmt::format("cannot save '{}': {} images are at most {}x{}, this one is {}x{}", path.string(),
                            format_name(format), max_side, max_side, image.width(), image.height()),
                "crop the image, or save as .png");
  }
  // stb's BMP and TGA encoders keep the data's size in an int (the BMP header stores it). PNG, JPEG and HDR are
  // written row by row.
  std::size_t bytes_per_pixel = 0;
  if (format == Format::Bmp) bytes_per_pixel = image.channels() == 1 || image.channels() == 3 ? 3 : 4;
  if (format == Format::Tga) bytes_per_pixel = std::size_t(image.channels());
  const std::size_t row = std::size_t(image.width()) * bytes_per_pixel + 1;
  if (bytes_per_pixel != 0 && row * std::size_t(image.height()) > std::size_t(INT_MAX) - 1024) {
    throw_usage(fmt::format("cannot save '{}': a {}x{}x{} image is too large for the {} encoder (2 GiB of data)",
                            path.string(), image.width(), image.height(), image.channels(), format_name(format)),
                "crop the image or save it in tiles");
  }
}

}  // namespace

void save_image(const Image& image, const fs::path& path, const SaveOptions& options) {
  const Format format = format_for(path);
  validate(image, path, format, options);
  if (format == Format::Npy) return write_npy_image(image, path);  // the values as they are, no conversion
  const int png_depth = options.png_bit_depth.value_or(image.type() == ElemType::U16 ? 16 : 8);
  check_encoder_limits(image, path, format);
  const int w = image.width(), h = image.height(), c = image.channels();

  // Conversions happen before the temporary file is created.
  Image converted;
  const Image* px = &image;
  auto use_type = [&](ElemType type) {
    if (image.type() != type) px = &(converted = convert_type(image, type));
  };
  std::function<void(std::FILE*)> write;
  switch (format) {
    case Format::Png:
      use_type(png_depth == 16 ? ElemType::U16 : ElemType::U8);
      write = [&](std::FILE* f) { write_png_rows(f, *px, path.string(), options.progress); };
      break;
    case Format::Jpeg:
      use_type(ElemType::U8);
      write = [&](std::FILE* f) {
        check_encoded(stbi_write_jpg_to_func(write_to_file, f, w, h, c, px->data(), options.jpeg_quality), format);
      };
      break;
    case Format::Bmp:
      use_type(ElemType::U8);
      // stb writes gray+alpha BMP as RGB without the alpha; RGBA keeps it.
      if (c == 2) px = &(converted = convert_channels(*px, 4));
      write = [&](std::FILE* f) {
        check_encoded(stbi_write_bmp_to_func(write_to_file, f, w, h, px->channels(), px->data()), format);
      };
      break;
    case Format::Tga:
      use_type(ElemType::U8);
      write = [&](std::FILE* f) {
        check_encoded(stbi_write_tga_to_func(write_to_file, f, w, h, c, px->data()), format);
      };
      break;
    case Format::Hdr:
      converted = hdr_pixels(image);
      px = &converted;
      write = [&](std::FILE* f) {
        check_encoded(stbi_write_hdr_to_func(write_to_file, f, w, h, c, px->elements<float>().data()), format);
      };
      break;
    case Format::Npy:  // written above
      break;
  }
  write_file_atomically(path, write);
}

}  // namespace ks
