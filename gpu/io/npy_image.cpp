#include "io/npy_image.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <climits>
#include <cstring>

#include "core/error.hpp"
#include "io/npy_format.hpp"

namespace ks {

namespace {

constexpr const char* kAllowed =
    "give an image as a C-ordered uint8 or float32 array of shape (H, W) or (H, W, C) with C = 1..4, e.g. "
    "numpy.save(path, numpy.ascontiguousarray(a, dtype=numpy.float32))";

ElemType image_type(const NpyHeader& h, const std::string& what) {
  if (npy_descr_is(h.descr, "|u1") || npy_descr_is(h.descr, "<u1")) return ElemType::U8;
  if (npy_descr_is(h.descr, "<f4")) return ElemType::F32;
  refuse_npy(what,
             fmt::format("element type '{}' ({}; images are uint8 '|u1' or float32 '<f4')", h.descr,
                         !h.descr.empty() && h.descr[0] == '>' ? "big-endian" : "neither u8 nor f32"),
             kAllowed);
}

// The header as an image shape, or the reason it is not one.
ImageShape image_shape(const NpyHeader& h, const std::string& what, std::size_t max_bytes) {
  const ElemType type = image_type(h, what);
  const std::string shape = fmt::format("({})", fmt::join(h.shape, ", "));
  if (h.shape.size() != 2 && h.shape.size() != 3)
    refuse_npy(what,
               fmt::format("shape {}: {} dimensions (images are H x W or H x W x C)", shape, h.shape.size()),
               kAllowed);
  const std::int64_t height = h.shape[0], width = h.shape[1], channels = h.shape.size() == 3 ? h.shape[2] : 1;
  if (channels < 1 || channels > 4)
    refuse_npy(what, fmt::format("shape {}: {} channels (1 to 4 are taken)", shape, channels), kAllowed);
  if (height < 1 || width < 1) refuse_npy(what, fmt::format("shape {}: an empty image", shape), kAllowed);
  if (height > INT_MAX || width > INT_MAX)
    refuse_npy(what, fmt::format("shape {}: a side longer than {} pixels", shape, INT_MAX), kAllowed);
  if (h.fortran_order && (height > 1) + (width > 1) + (channels > 1) > 1)
    refuse_npy(what, "Fortran (column-major) order; save numpy.ascontiguousarray(a)", kAllowed);
  const ImageShape s{int(width), int(height), int(channels), type};
  std::size_t bytes = 0;
  const bool overflow = __builtin_mul_overflow(std::size_t(width), std::size_t(height), &bytes) ||
                        __builtin_mul_overflow(bytes, std::size_t(channels) * elem_size(type), &bytes);
  if (overflow || bytes > max_bytes)
    throw_io(fmt::format(
                 "'{}' is a {}x{} image with {} channel(s) of {}: {}, more than the load limit of {} bytes",
                 what, width, height, channels, to_string(type),
                 overflow ? std::string("more bytes than can be addressed") : fmt::format("{} bytes", bytes),
                 max_bytes),
             "if the array is genuine, raise the load limit or crop it; otherwise the file is corrupt");
  return s;
}

NpyCheck image_check(const std::string& what, std::size_t max_bytes) {
  return [what, max_bytes](const NpyHeader& h) {
    const ImageShape s = image_shape(h, what, max_bytes);
    return NpyElement{elem_size(s.type), to_string(s.type)};
  };
}

Image to_image(const NpyContent& c, const std::string& what, std::size_t max_bytes) {
  return Image(image_shape(c.header, what, max_bytes), c.data);
}

}  // namespace

Image read_npy_image(const std::filesystem::path& path, std::size_t max_bytes) {
  const std::string what = path.string();
  return to_image(read_npy_content(path, image_check(what, max_bytes), kAllowed), what, max_bytes);
}

Image parse_npy_image(std::span<const std::byte> bytes, const std::string& what, std::size_t max_bytes) {
  return to_image(parse_npy_content(bytes, what, image_check(what, max_bytes), kAllowed), what, max_bytes);
}

void write_npy_image(const Image& image, const std::filesystem::path& path) {
  if (image.type() != ElemType::U8 && image.type() != ElemType::F32)
    throw_usage(fmt::format("cannot save '{}': .npy images are u8 or f32, this one is {}", path.string(),
                            to_string(image.type())),
                "save it as .png (16-bit), or convert it to f32 first");
  std::vector<std::int64_t> shape = {image.height(), image.width()};
  if (image.channels() > 1) shape.push_back(image.channels());
  write_npy_content(path, image.type() == ElemType::U8 ? "|u1" : "<f4", shape,
                    std::span<const std::byte>(image.data(), image.byte_size()));
}

bool starts_like_npy(std::span<const unsigned char> head) {
  return head.size() >= 6 && std::memcmp(head.data(), "\x93NUMPY", 6) == 0;
}

}  // namespace ks
