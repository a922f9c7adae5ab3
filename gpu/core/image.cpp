#include "core/image.hpp"

#include <cmath>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace ks {

std::size_t elem_size(ElemType t) noexcept {
  switch (t) {
    case ElemType::U8: return 1;
    case ElemType::U16: return 2;
    case ElemType::F32: return 4;
  }
  return 0;
}

namespace {
constexpr EnumName<ElemType> kElemTypeNames[] = {
    {ElemType::U8, "u8"}, {ElemType::U16, "u16"}, {ElemType::F32, "f32"}};
}

const char* to_string(ElemType t) noexcept {
  return name_of(kElemTypeNames, t);
}

ElemType elem_type_from_string(const std::string& s) {
  return value_named(kElemTypeNames, s, "element type");
}

namespace {

// Far beyond any image this tool can process; asking for more means a corrupt header or a wrong parameter,
// and refusing early gives a clear message instead of the system thrashing or the allocator aborting.
constexpr std::size_t kMaxImageBytes = std::size_t(1) << 40;

std::string describe(const ImageShape& s) {
  return fmt::format("{}x{}x{} {}", s.width, s.height, s.channels, to_string(s.type));
}

// ImageShape::byte_size() wraps around for absurd sizes; this says so instead.
std::optional<std::size_t> checked_byte_size(const ImageShape& s) {
  std::size_t n = std::size_t(s.width);
  if (__builtin_mul_overflow(n, std::size_t(s.height), &n) ||
      __builtin_mul_overflow(n, std::size_t(s.channels), &n) ||
      __builtin_mul_overflow(n, elem_size(s.type), &n)) {
    return std::nullopt;
  }
  return n;
}

}  // namespace

// The checks of a shape and the allocation of its bytes: zeros, or (`copy` given) a copy written as allocated;
// with `allocate_bytes` false only the checks (a borrowed image).
void Image::allocate(ImageShape shape, const std::span<const std::byte>* copy, bool allocate_bytes) {
  // The all-zero shape is what Image() holds; accepting it keeps Image(other.shape()) valid for every image.
  const bool default_shape = shape.width == 0 && shape.height == 0 && shape.channels == 0;
  if (shape.width < 0 || shape.height < 0) {
    throw_usage(fmt::format("image size {}x{} is negative", shape.width, shape.height),
                "width and height must be 0 or more");
  }
  if (!default_shape && (shape.channels < 1 || shape.channels > 4)) {
    throw_usage(fmt::format("images have 1 to 4 channels, not {}", shape.channels),
                "use 1 (gray), 2 (gray+alpha), 3 (RGB) or 4 (RGBA)");
  }
  const std::optional<std::size_t> size = checked_byte_size(shape);
  if (!size) {
    throw Error(ErrorKind::OutOfMemory,
                fmt::format("cannot allocate a {} image: its byte size overflows", describe(shape)),
                "the size is probably wrong; check the width and height");
  }
  const std::size_t bytes = *size;
  if (bytes > kMaxImageBytes) {
    throw Error(ErrorKind::OutOfMemory,
                fmt::format("cannot allocate a {} image: {} bytes is more than the limit of {} bytes",
                            describe(shape), bytes, kMaxImageBytes),
                "use a smaller image or crop it");
  }
  if (!allocate_bytes) {
    shape_ = shape;
    return;
  }
  if (copy && copy->size() != bytes)
    throw Error(ErrorKind::Internal, fmt::format("{} bytes given for a {} image of {} bytes", copy->size(),
                                                 describe(shape), bytes));
  try {
    if (copy)
      bytes_.assign(copy->begin(), copy->end());  // no zero-filling pass before the copy
    else
      bytes_.resize(bytes);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::OutOfMemory,
                fmt::format("out of memory allocating a {} image ({} bytes)", describe(shape), bytes),
                "close other programs or use a smaller image");
  } catch (const std::length_error&) {
    throw Error(ErrorKind::OutOfMemory,
                fmt::format("cannot allocate a {} image ({} bytes)", describe(shape), bytes),
                "use a smaller image");
  }
  shape_ = shape;
}

Image::Image(ImageShape shape) { allocate(shape, nullptr); }

Image::Image(ImageShape shape, std::span<const std::byte> bytes) { allocate(shape, &bytes); }

Image Image::borrow(ImageShape shape, std::byte* data) {
  Image img;
  img.allocate(shape, nullptr, false);
  if (shape.byte_size() != 0 && !data)
    throw Error(ErrorKind::Internal, fmt::format("no memory given to borrow for a {} image", describe(shape)));
  img.borrowed_ = shape.byte_size() != 0 ? data : nullptr;
  return img;
}

Image Image::borrow(ImageShape shape, std::byte* data, std::shared_ptr<const void> keeper) {
  Image img = borrow(shape, data);
  if (img.borrowed_) img.keeper_ = std::move(keeper);
  return img;
}

Image::Image(const Image& other) : shape_(other.shape_) {
  const std::span<const std::byte> bytes(other.data(), other.byte_size());
  if (other.borrowed_)
    allocate(other.shape_, &bytes);
  else
    bytes_ = other.bytes_;
}

Image& Image::operator=(const Image& other) {
  if (this != &other) *this = Image(other);
  return *this;
}

Image::Image(Image&& other) noexcept
    : shape_(other.shape_),  // a moved-from image keeps its shape and no bytes, as a moved vector leaves it
      bytes_(std::move(other.bytes_)),
      borrowed_(std::exchange(other.borrowed_, nullptr)),
      keeper_(std::move(other.keeper_)) {
  other.bytes_.clear();
}

Image& Image::operator=(Image&& other) noexcept {
  if (this != &other) {
    shape_ = other.shape_;
    bytes_ = std::move(other.bytes_);
    other.bytes_.clear();
    borrowed_ = std::exchange(other.borrowed_, nullptr);
    keeper_ = std::move(other.keeper_);
  }
  return *this;
}

namespace {

// Scale a float in 0..1 to 0..max, round half up, saturate; NaN becomes 0 so that one bad pixel cannot poison
// an integer image with an arbitrary value.
template <class T>
T float_to_int(float v, double max) {
  const double scaled = double(v) * max;
  if (!(scaled > 0.0)) return T(0);  // also NaN
  if (scaled >= max) return T(max);
  return T(std::floor(scaled + 0.5));
}

template <class From, class To, class Fn>
void convert_elements(const Image& src, Image& dst, Fn fn) {
  auto in = src.elements<From>();
  auto out = dst.elements<To>();
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = fn(in[i]);
}

}  // namespace

Image convert_type(const Image& src, ElemType to) {
  ImageShape shape = src.shape();
  shape.type = to;
  Image dst(shape);
  const ElemType from = src.type();
  if (from == to) {
    if (src.byte_size() != 0) std::memcpy(dst.data(), src.data(), src.byte_size());
    return dst;
  }
  using u8 = std::uint8_t;
  using u16 = std::uint16_t;
  if (from == ElemType::U8 && to == ElemType::F32) {
    convert_elements<u8, float>(src, dst, [](u8 v) { return float(v) / 255.0f; });
  } else if (from == ElemType::U16 && to == ElemType::F32) {
    convert_elements<u16, float>(src, dst, [](u16 v) { return float(v) / 65535.0f; });
  } else if (from == ElemType::F32 && to == ElemType::U8) {
    convert_elements<float, u8>(src, dst, [](float v) { return float_to_int<u8>(v, 255.0); });
  } else if (from == ElemType::F32 && to == ElemType::U16) {
    convert_elements<float, u16>(src, dst, [](float v) { return float_to_int<u16>(v, 65535.0); });
  } else if (from == ElemType::U8 && to == ElemType::U16) {
    // 257 = 65535 / 255 exactly, so 0 and 255 map to 0 and 65535 and U16 -> U8 inverts it.
    convert_elements<u8, u16>(src, dst, [](u8 v) { return u16(v * 257); });
  } else if (from == ElemType::U16 && to == ElemType::U8) {
    // round(v / 257) in integers: v / 257 is never exactly halfway, so there is no tie to break.
    convert_elements<u16, u8>(src, dst, [](u16 v) { return u8((2u * v + 257u) / 514u); });
  } else {
    throw Error(ErrorKind::Internal, fmt::format("convert_type: no conversion from {} to {}", to_string(from),
                                                 to_string(to)));
  }
  return dst;
}

namespace {

template <class T>
constexpr T opaque() {
  if constexpr (std::is_same_v<T, float>) return 1.0f;
  else return T(~T(0));
}

template <class T>
T luma(T r, T g, T b) {
  const double y = 0.299 * double(r) + 0.587 * double(g) + 0.114 * double(b);
  if constexpr (std::is_same_v<T, float>) {
    return float(y);
  } else {
    // Coefficients sum to 1, so y stays within the type's range up to rounding noise.
    const double rounded = std::floor(y + 0.5);
    return rounded >= double(opaque<T>()) ? opaque<T>() : T(rounded);
  }
}

// Maps one source pixel to one destination pixel; n_in/n_out are the channel counts.
template <class T>
void convert_pixels(const Image& src, Image& dst) {
  const int n_in = src.channels(), n_out = dst.channels();
  auto in = src.elements<T>();
  auto out = dst.elements<T>();
  const std::size_t pixels = src.shape().pixel_count();
  for (std::size_t p = 0; p < pixels; ++p) {
    const T* s = &in[p * n_in];
    T* d = &out[p * n_out];
    switch (n_in * 10 + n_out) {
      case 13: d[0] = d[1] = d[2] = s[0]; break;
      case 14: d[0] = d[1] = d[2] = s[0]; d[3] = opaque<T>(); break;
      case 24: d[0] = d[1] = d[2] = s[0]; d[3] = s[1]; break;
      case 34: d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = opaque<T>(); break;
      case 43: d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; break;
      case 31:
      case 41: d[0] = luma(s[0], s[1], s[2]); break;
    }
  }
}

bool supported_channel_conversion(int from, int to) {
  if (from == to) return true;
  switch (from * 10 + to) {
    case 13: case 14: case 24: case 34: case 43: case 31: case 41: return true;
    default: return false;
  }
}

}  // namespace

Image convert_channels(const Image& src, int to_channels) {
  if (to_channels < 1 || to_channels > 4) {
    throw_usage(fmt::format("cannot convert to {} channels", to_channels), "use 1, 2, 3 or 4 channels");
  }
  if (!supported_channel_conversion(src.channels(), to_channels) && src.channels() != 0) {
    throw_usage(fmt::format("cannot convert an image from {} to {} channels", src.channels(), to_channels),
                "supported: 1->3, 1->4, 2->4, 3->4, 4->3, 3->1, 4->1 and n->n");
  }
  ImageShape shape = src.shape();
  shape.channels = to_channels;
  if (src.channels() == 0) {  // a default-constructed image: nothing to convert
    shape.width = shape.height = 0;
    return Image(shape);
  }
  Image dst(shape);
  if (src.channels() == to_channels) {
    if (src.byte_size() != 0) std::memcpy(dst.data(), src.data(), src.byte_size());
    return dst;
  }
  switch (src.type()) {
    case ElemType::U8: convert_pixels<std::uint8_t>(src, dst); break;
    case ElemType::U16: convert_pixels<std::uint16_t>(src, dst); break;
    case ElemType::F32: convert_pixels<float>(src, dst); break;
  }
  return dst;
}

}  // namespace ks
