#include "io/png_rows.hpp"

#include <png.h>

#include <algorithm>
#include <array>
#include <bit>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/png_support.hpp"

namespace ks {

namespace {

constexpr std::array<unsigned char, 8> kSignature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
// The signature and the IHDR chunk (length, type, 13 bytes of data, CRC): read here first, to leave the kinds
// stb_image takes (and Apple's CgBI, whose first chunk is not IHDR) before libpng sees the file.
constexpr std::size_t kHeadBytes = 8 + 8 + 13 + 4;
constexpr std::uint32_t kMaxSide = 1u << 24;

std::uint32_t be32(const unsigned char* b) {
  return std::uint32_t(b[0]) << 24 | std::uint32_t(b[1]) << 16 | std::uint32_t(b[2]) << 8 | b[3];
}

// What libpng's callbacks share with the decoder. libpng reports errors by longjmp, so nothing that libpng's C
// frames could be unwound past owns anything: the C++ state (the reader's exception) lives in decode_png_rows.
struct Context {
  const PngReader* read = nullptr;
  std::array<unsigned char, kHeadBytes> head{};
  std::size_t head_used = 0;     // bytes of `head` already handed to libpng
  bool truncated = false;        // the file ended before libpng had what it needed
  std::exception_ptr read_error;  // the reader threw: rethrown once libpng is out of the way
  std::uint32_t row = 0;         // the row being decoded, for messages
  png_support::PngError error;   // libpng's error
};

Context& context_of(png_structp png) { return *static_cast<Context*>(png_get_io_ptr(png)); }

void on_read(png_structp png, png_bytep out, png_size_t size) {
  Context& c = context_of(png);
  const std::size_t from_head = std::min(size, c.head.size() - c.head_used);
  std::memcpy(out, c.head.data() + c.head_used, from_head);
  c.head_used += from_head;
  std::size_t got = from_head;
  if (got < size) {
    try {
      got += (*c.read)(out + got, size - got);
    } catch (...) {
      c.read_error = std::current_exception();
      png_error(png, "read failed");
    }
  }
  if (got < size) {
    c.truncated = true;
    png_error(png, "the data ends early");
  }
}

enum class Step { Done, NotMine, Failed, Cancelled };

// The two functions that call setjmp hold only trivially destructible locals, and the only C++ call made between
// setjmp and a possible longjmp is the progress callback, never from inside libpng: a longjmp skips no destructor.
Step read_header(png_structp png, png_infop info) {
  if (setjmp(png_jmpbuf(png))) return Step::Failed;
  png_read_info(png, info);
  // stb_image adds an alpha channel for tRNS: that stays stb's, as palettes and interlacing do.
  if (png_get_valid(png, info, PNG_INFO_tRNS)) return Step::NotMine;
  if (png_get_bit_depth(png, info) == 16 && std::endian::native == std::endian::little)
    png_set_swap(png);  // the file's big-endian samples in the host's order, as stb_image gives them
  png_read_update_info(png, info);
  return Step::Done;
}

Step read_rows(png_structp png, Context& c, std::byte* pixels, std::size_t stride, std::uint32_t height,
               const LoadProgress& progress) {
  if (setjmp(png_jmpbuf(png))) return Step::Failed;
  for (c.row = 0; c.row < height; ++c.row) {
    png_read_row(png, reinterpret_cast<png_bytep>(pixels + std::size_t(c.row) * stride), nullptr);
    if (!png_support::report_rows(progress, c.row + 1, height)) return Step::Cancelled;
  }
  // A file cut after its last row still lacks its end: said as stb_image says it (a few bytes to read).
  png_read_end(png, nullptr);
  return Step::Done;
}

struct PngRead {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~PngRead() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

}  // namespace

std::optional<Image> decode_png_rows(const PngReader& read, const std::string& name, const LoadProgress& progress) {
  Context c;
  c.read = &read;
  auto truncated = [&](const std::string& what) {
    throw_io(fmt::format("'{}' ({}) is corrupt or truncated (its data ends early)", name, what),
             "the file is damaged or incomplete; export or download it again");
  };
  if (read(c.head.data(), c.head.size()) != c.head.size()) truncated("PNG");
  const unsigned char* ihdr = c.head.data() + 16;
  if (!std::equal(kSignature.begin(), kSignature.end(), c.head.begin()) || be32(c.head.data() + 8) != 13 ||
      std::memcmp(c.head.data() + 12, "IHDR", 4) != 0)
    return std::nullopt;
  const std::uint32_t width = be32(ihdr), height = be32(ihdr + 4);
  const int depth = ihdr[8], colour = ihdr[9];
  const int channels = colour == PNG_COLOR_TYPE_GRAY        ? 1
                       : colour == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
                       : colour == PNG_COLOR_TYPE_RGB        ? 3
                       : colour == PNG_COLOR_TYPE_RGB_ALPHA  ? 4
                                                             : 0;
  if (channels == 0 || (depth != 8 && depth != 16) || ihdr[10] != 0 || ihdr[11] != 0 || ihdr[12] != 0 ||
      width == 0 || height == 0 || width > kMaxSide || height > kMaxSide)
    return std::nullopt;
  const std::string what = fmt::format("PNG {}x{}", width, height);

  PngRead p;
  p.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &c.error, png_support::on_error,
                                 png_support::on_warning);
  if (p.png) p.info = png_create_info_struct(p.png);
  if (!p.png || !p.info) throw Error(ErrorKind::OutOfMemory, "libpng could not start reading a PNG");
  png_set_read_fn(p.png, &c, on_read);
  png_set_user_limits(p.png, kMaxSide, kMaxSide);
  // CRCs are not checked, as stb_image does not: a file that loaded before still loads; damaged image data
  // still fails in inflate or in the row filters.
  png_set_crc_action(p.png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
  auto failed = [&](const std::string& where) {
    if (c.read_error) std::rethrow_exception(c.read_error);
    if (c.truncated) truncated(what);
    throw_io(fmt::format("'{}' ({}) is corrupt{} (libpng: {})", name, what, where, c.error.message),
             "the file is damaged; export or download it again");
  };

  const Step header = read_header(p.png, p.info);
  if (header == Step::NotMine) return std::nullopt;
  if (header == Step::Failed) failed("");
  const std::size_t stride = std::size_t(width) * std::size_t(channels) * std::size_t(depth / 8);
  if (png_get_image_width(p.png, p.info) != width || png_get_image_height(p.png, p.info) != height ||
      png_get_channels(p.png, p.info) != channels || png_get_rowbytes(p.png, p.info) != stride)
    throw Error(ErrorKind::Internal, fmt::format("libpng read '{}' ({}) as another layout", name, what));

  Image image(int(width), int(height), channels, depth == 16 ? ElemType::U16 : ElemType::U8);
  const Step rows = read_rows(p.png, c, image.data(), stride, height, progress);
  if (rows == Step::Failed) failed(fmt::format(" at row {}", c.row));
  if (rows == Step::Cancelled) throw Error(ErrorKind::Cancelled, fmt::format("loading '{}' was cancelled", name));
  return image;
}

}  // namespace ks
