#include "io/png_rows.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks {

namespace {

constexpr std::array<unsigned char, 8> kSignature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
constexpr std::size_t kInputBytes = std::size_t(1) << 16;  // compressed bytes read at a time
constexpr int kColourGrey = 0, kColourRgb = 2, kColourGreyAlpha = 4, kColourRgba = 6;

std::uint32_t be32(const unsigned char* b) {
  return std::uint32_t(b[0]) << 24 | std::uint32_t(b[1]) << 16 | std::uint32_t(b[2]) << 8 | b[3];
}

struct Header {
  std::uint32_t width = 0, height = 0;
  int depth = 0, colour = 0, interlace = 0;
  int channels() const {
    return colour == kColourGrey ? 1 : colour == kColourGreyAlpha ? 2 : colour == kColourRgb ? 3 : 4;
  }
};

// The file's chunks one after the other, and the bytes of the current one.
class Chunks {
 public:
  Chunks(const PngReader& read, const std::string& name) : read_(read), name_(name) {}

  // The next chunk's type ("IHDR", "IDAT", ...); the previous chunk's unread data and its CRC are skipped.
  std::string next() {
    skip(left_ + 4 * started_);
    unsigned char head[8];
    exactly(head, 8);
    left_ = be32(head);
    started_ = true;
    return std::string(reinterpret_cast<const char*>(head + 4), 4);
  }
  std::uint32_t left() const noexcept { return left_; }
  // Up to `size` bytes of the current chunk's data.
  std::size_t data(unsigned char* out, std::size_t size) {
    const std::size_t n = std::min<std::size_t>(size, left_);
    exactly(out, n);
    left_ -= std::uint32_t(n);
    return n;
  }
  void exactly(unsigned char* out, std::size_t n) {
    if (n && read_(out, n) != n) truncated();
  }
  [[noreturn]] void truncated() const {
    throw_io(fmt::format("'{}' ({}) is corrupt or truncated (its data ends early)", name_, what_),
             "the file is damaged or incomplete; export or download it again");
  }
  void set_size(std::uint32_t w, std::uint32_t h) { what_ = fmt::format("PNG {}x{}", w, h); }

 private:
  void skip(std::size_t n) {
    unsigned char sink[4096];
    while (n) {
      const std::size_t k = std::min(n, sizeof sink);
      exactly(sink, k);
      n -= k;
    }
  }
  const PngReader& read_;
  const std::string& name_;
  std::uint32_t left_ = 0;
  bool started_ = false;
  std::string what_ = "PNG";  // "PNG 64x48" once the header is read
};

unsigned char paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return static_cast<unsigned char>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// PNG's five row filters undone in place; `prev` is the previous row, unfiltered (zeros above the first).
bool unfilter(int filter, unsigned char* row, const unsigned char* prev, std::size_t n, std::size_t bpp) {
  switch (filter) {
    case 0: return true;
    case 1:
      for (std::size_t i = bpp; i < n; ++i) row[i] = static_cast<unsigned char>(row[i] + row[i - bpp]);
      return true;
    case 2:
      for (std::size_t i = 0; i < n; ++i) row[i] = static_cast<unsigned char>(row[i] + prev[i]);
      return true;
    case 3:
      for (std::size_t i = 0; i < n; ++i)
        row[i] = static_cast<unsigned char>(row[i] + ((i >= bpp ? row[i - bpp] : 0) + prev[i]) / 2);
      return true;
    case 4:
      for (std::size_t i = 0; i < n; ++i)
        row[i] = static_cast<unsigned char>(
            row[i] + paeth(i >= bpp ? row[i - bpp] : 0, prev[i], i >= bpp ? prev[i - bpp] : 0));
      return true;
    default: return false;
  }
}

struct Inflater {
  z_stream z{};
  Inflater() {
    if (inflateInit(&z) != Z_OK) throw Error(ErrorKind::OutOfMemory, "zlib could not start inflating a PNG");
  }
  ~Inflater() { inflateEnd(&z); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
};

}  // namespace

std::optional<Image> decode_png_rows(const PngReader& read, const std::string& name, const LoadProgress& progress) {
  Chunks chunks(read, name);
  std::array<unsigned char, 8> signature{};
  chunks.exactly(signature.data(), signature.size());
  if (signature != kSignature || chunks.next() != "IHDR" || chunks.left() != 13) return std::nullopt;
  unsigned char ihdr[13];
  chunks.data(ihdr, sizeof ihdr);
  Header h{be32(ihdr), be32(ihdr + 4), ihdr[8], ihdr[9], ihdr[12]};
  const bool colour_ok = h.colour == kColourGrey || h.colour == kColourRgb || h.colour == kColourGreyAlpha ||
                         h.colour == kColourRgba;
  if (!colour_ok || (h.depth != 8 && h.depth != 16) || h.interlace != 0 || ihdr[10] != 0 || ihdr[11] != 0 ||
      h.width == 0 || h.height == 0 || h.width > (1u << 24) || h.height > (1u << 24))
    return std::nullopt;
  chunks.set_size(h.width, h.height);

  std::string type;
  while ((type = chunks.next()) != "IDAT") {
    // stb_image adds an alpha channel for tRNS, and a palette needs one: both stay stb's.
    if (type == "tRNS" || type == "PLTE" || type == "IEND") return std::nullopt;
  }

  const std::size_t sample = std::size_t(h.depth / 8), bpp = std::size_t(h.channels()) * sample;
  const std::size_t stride = std::size_t(h.width) * bpp;
  Image image(int(h.width), int(h.height), h.channels(), h.depth == 16 ? ElemType::U16 : ElemType::U8);
  std::vector<unsigned char> row(stride + 1), prev(stride, 0), input(kInputBytes);
  Inflater inflater;
  z_stream& z = inflater.z;
  // Progress about a hundred times over the image, and never less often than every 64 rows' worth of work.
  const std::uint32_t report_every = std::max<std::uint32_t>(1, std::min<std::uint32_t>(h.height / 100, 64));
  bool stream_ended = false;
  for (std::uint32_t y = 0; y < h.height; ++y) {
    z.next_out = row.data();
    z.avail_out = uInt(row.size());
    while (z.avail_out > 0) {
      if (stream_ended)
        throw_io(fmt::format("'{}' (PNG {}x{}) is corrupt or truncated (its compressed data ends at row {})", name,
                             h.width, h.height, y),
                 "the file is damaged or incomplete; export or download it again");
      if (z.avail_in == 0) {
        while (chunks.left() == 0)
          if (chunks.next() != "IDAT") chunks.truncated();  // the image data ended before its last row
        z.avail_in = uInt(chunks.data(input.data(), input.size()));
        z.next_in = input.data();
      }
      const int r = inflate(&z, Z_NO_FLUSH);
      if (r == Z_STREAM_END) stream_ended = true;
      else if (r != Z_OK && r != Z_BUF_ERROR)
        throw_io(fmt::format("'{}' (PNG {}x{}) is corrupt: its compressed data is damaged at row {} (zlib: {})", name,
                             h.width, h.height, y, z.msg ? z.msg : "error"),
                 "the file is damaged; export or download it again");
    }
    unsigned char* pixels = row.data() + 1;
    if (!unfilter(row[0], pixels, prev.data(), stride, bpp))
      throw_io(fmt::format("'{}' (PNG {}x{}) is corrupt: row {} has the unknown filter {}", name, h.width, h.height,
                           y, int(row[0])),
               "the file is damaged; export or download it again");
    std::byte* out = image.data() + std::size_t(y) * stride;
    if (sample == 1) {
      std::memcpy(out, pixels, stride);
    } else {  // big-endian samples, as the file has them, to the host's order
      for (std::size_t i = 0; i < stride; i += 2) {
        const std::uint16_t v = std::uint16_t(pixels[i] << 8 | pixels[i + 1]);
        std::memcpy(out + i, &v, 2);
      }
    }
    std::memcpy(prev.data(), pixels, stride);
    if (progress && ((y + 1) % report_every == 0 || y + 1 == h.height) && !progress(double(y + 1) / h.height))
      throw Error(ErrorKind::Cancelled, fmt::format("loading '{}' was cancelled", name));
  }
  // A file cut after its last row still lacks its end: said as stb_image says it (a few bytes to read).
  while (chunks.next() != "IEND") {
  }
  return image;
}

}  // namespace ks
