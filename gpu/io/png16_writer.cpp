#include "io/png16_writer.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

// libstb exports stb_image_write's deflate encoder, but the header declares it only in its implementation part.
// We use it for 16-bit PNG, which stbi_write_png cannot write, rather than adding a zlib dependency.
extern "C" unsigned char* stbi_zlib_compress(unsigned char* data, int data_len, int* out_len, int quality);

namespace ks {

namespace {

constexpr std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}

std::uint32_t crc32(std::span<const unsigned char> data) {
  static constexpr std::array<std::uint32_t, 256> table = make_crc_table();
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : data) c = table[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void put_be32(std::vector<unsigned char>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back((unsigned char)(v >> shift));
}

void put_chunk(std::vector<unsigned char>& out, const char type[4], std::span<const unsigned char> data) {
  put_be32(out, std::uint32_t(data.size()));
  const std::size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  put_be32(out, crc32(std::span(out).subspan(start)));  // the CRC covers type and data
}

int paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}

// PNG filter `type` of one row (bytes), bpp = bytes per pixel; prev is the unfiltered row above (zeros at top).
void filter_row(int type, const unsigned char* cur, const unsigned char* prev, std::size_t n, int bpp,
                unsigned char* out) {
  for (std::size_t i = 0; i < n; ++i) {
    const int a = i >= std::size_t(bpp) ? cur[i - bpp] : 0, b = prev[i],
              c = i >= std::size_t(bpp) ? prev[i - bpp] : 0;
    int predicted = 0;
    switch (type) {
      case 1: predicted = a; break;
      case 2: predicted = b; break;
      case 3: predicted = (a + b) / 2; break;
      case 4: predicted = paeth(a, b, c); break;
    }
    out[i] = (unsigned char)(cur[i] - predicted);
  }
}

}  // namespace

std::vector<unsigned char> encode_png16(const Image& img) {
  const int bpp = 2 * img.channels();
  const std::size_t row = std::size_t(img.width()) * bpp;
  std::vector<unsigned char> filtered((row + 1) * img.height());
  std::vector<unsigned char> prev(row, 0), cur(row), trial(row);
  for (int y = 0; y < img.height(); ++y) {
    const std::uint16_t* src = img.row<std::uint16_t>(y);
    for (std::size_t i = 0; i < row / 2; ++i) {  // PNG stores samples big-endian
      cur[2 * i] = (unsigned char)(src[i] >> 8);
      cur[2 * i + 1] = (unsigned char)(src[i] & 0xFF);
    }
    // The usual heuristic (as libpng and stb): the filter whose output has the smallest sum of |signed byte|.
    unsigned char* out = &filtered[(row + 1) * y];
    long long best_cost = -1;
    for (int type = 0; type < 5; ++type) {
      filter_row(type, cur.data(), prev.data(), row, bpp, trial.data());
      long long cost = 0;
      for (unsigned char v : trial) cost += std::abs(int(static_cast<signed char>(v)));
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        out[0] = (unsigned char)type;
        std::copy(trial.begin(), trial.end(), out + 1);
      }
    }
    std::swap(prev, cur);
  }

  int zlen = 0;
  std::unique_ptr<unsigned char, decltype(&std::free)> z(
      stbi_zlib_compress(filtered.data(), int(filtered.size()), &zlen, 8), &std::free);
  if (!z) {
    throw Error(ErrorKind::OutOfMemory,
                fmt::format("out of memory compressing a {}x{} 16-bit PNG", img.width(), img.height()),
                "close other programs or save a smaller image");
  }

  static constexpr unsigned char color_type_for_channels[] = {0, 0, 4, 2, 6};  // gray, gray+alpha, RGB, RGBA
  std::vector<unsigned char> ihdr;
  put_be32(ihdr, std::uint32_t(img.width()));
  put_be32(ihdr, std::uint32_t(img.height()));
  ihdr.insert(ihdr.end(), {16, color_type_for_channels[img.channels()], 0, 0, 0});  // depth, color, deflate,
                                                                                     // filter set 0, no interlace
  std::vector<unsigned char> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  png.reserve(png.size() + std::size_t(zlen) + 64);
  put_chunk(png, "IHDR", ihdr);
  put_chunk(png, "IDAT", std::span<const unsigned char>(z.get(), std::size_t(zlen)));
  put_chunk(png, "IEND", {});
  return png;
}

}  // namespace ks
