// PNGs decoded row by row (gpu/io/png_rows.hpp): every row filter and every kind it takes gives the pixels that
// were written, progress rises to 1 and can stop the load, damaged data says so, and the kinds it leaves to
// stb_image (palettes, tRNS, interlacing) still load.
#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/image.hpp"
#include "io/image_io.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

void put32(std::string& s, std::uint32_t v) {
  for (int k = 3; k >= 0; --k) s += char((v >> (8 * k)) & 0xff);
}

void chunk(std::string& png, const char* type, const std::string& data) {
  put32(png, std::uint32_t(data.size()));
  const std::string body = type + data;
  png += body;
  put32(png, std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(body.data()), uInt(body.size()))));
}

// A PNG of `rows` (each starting with its filter byte), written by hand so every filter and kind is chosen here.
std::string png_of(int w, int h, int depth, int colour, const std::string& rows, int interlace = 0,
                   const std::string& before_data = {}) {
  std::string png = "\x89PNG\r\n\x1a\n", ihdr;
  put32(ihdr, std::uint32_t(w));
  put32(ihdr, std::uint32_t(h));
  ihdr += char(depth);
  ihdr += char(colour);
  ihdr += std::string(2, '\0');
  ihdr += char(interlace);
  chunk(png, "IHDR", ihdr);
  png += before_data;
  uLongf size = compressBound(uLong(rows.size()));
  std::string z(size, '\0');
  compress(reinterpret_cast<Bytef*>(z.data()), &size, reinterpret_cast<const Bytef*>(rows.data()), uLong(rows.size()));
  z.resize(size);
  chunk(png, "IDAT", z.substr(0, z.size() / 2));  // two IDAT chunks: the stream goes on across them
  chunk(png, "IDAT", z.substr(z.size() / 2));
  chunk(png, "IEND", "");
  return png;
}

unsigned char paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return static_cast<unsigned char>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// Rows of `bytes` (w * bpp each, big-endian samples) filtered with filter y % 5, as an encoder would.
std::string filtered(const std::vector<unsigned char>& bytes, int h, std::size_t stride, std::size_t bpp) {
  std::string out;
  for (int y = 0; y < h; ++y) {
    const unsigned char* row = bytes.data() + std::size_t(y) * stride;
    const unsigned char* up = y ? row - stride : nullptr;
    const int f = y % 5;
    out += char(f);
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= bpp ? row[i - bpp] : 0, b = up ? up[i] : 0, c = up && i >= bpp ? up[i - bpp] : 0;
      const int predicted = f == 0 ? 0 : f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) / 2 : paeth(a, b, c);
      out += char((row[i] - predicted) & 0xff);
    }
  }
  return out;
}

std::filesystem::path written(const test::TempDir& dir, const std::string& name, const std::string& bytes) {
  const auto path = dir.path() / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(PngRows, EveryFilterAndKindGivesThePixelsWritten) {
  test::TempDir dir;
  const int w = 37, h = 23;
  for (int depth : {8, 16})
    for (auto [colour, channels] : {std::pair{0, 1}, {4, 2}, {2, 3}, {6, 4}}) {
      const std::size_t bpp = std::size_t(channels * depth / 8), stride = std::size_t(w) * bpp;
      Image want(w, h, channels, depth == 16 ? ElemType::U16 : ElemType::U8);
      std::mt19937 random(std::uint32_t(depth * 10 + colour));
      for (std::size_t i = 0; i < want.byte_size(); ++i) want.data()[i] = std::byte(random() & 0xff);
      std::vector<unsigned char> bytes(stride * h);
      const auto* src = reinterpret_cast<const unsigned char*>(want.data());
      for (std::size_t i = 0; i < bytes.size(); i += depth / 8)  // the file's samples are big-endian
        if (depth == 8) bytes[i] = src[i];
        else bytes[i] = src[i + 1], bytes[i + 1] = src[i];
      const auto path = written(dir, "k.png", png_of(w, h, depth, colour, filtered(bytes, h, stride, bpp)));
      const Image got = load_image(path);
      ASSERT_EQ(got.shape(), want.shape()) << "depth " << depth << " colour " << colour;
      EXPECT_TRUE(test::images_match(got, want)) << "depth " << depth << " colour " << colour;
    }
}

TEST(PngRows, ProgressRisesToOneAndCanStopTheLoad) {
  test::TempDir dir;
  const int w = 64, h = 1000;
  const auto path = written(dir, "tall.png", png_of(w, h, 8, 0, filtered(std::vector<unsigned char>(w * h, 7), h, w, 1)));
  std::vector<double> seen;
  const Image image = load_image(path, {}, [&](double f) {
    seen.push_back(f);
    return true;
  });
  EXPECT_EQ(image.height(), h);
  ASSERT_GE(seen.size(), 10u);
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GT(seen[i], seen[i - 1]);
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);
  try {
    load_image(path, {}, [](double f) { return f < 0.5; });
    FAIL() << "a load told to stop went on";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Cancelled);
    EXPECT_NE(std::string(e.what()).find("cancelled"), std::string::npos) << e.what();
  }
}

TEST(PngRows, DamagedOrShortDataSaysSo) {
  test::TempDir dir;
  const int w = 40, h = 30;
  const std::string good = png_of(w, h, 8, 2, filtered(std::vector<unsigned char>(w * h * 3, 200), h, w * 3, 3));
  std::string damaged = good;
  const std::size_t idat = damaged.find("IDAT");
  for (std::size_t i = idat + 8; i < idat + 16; ++i) damaged[i] = char(0xff);  // inside the zlib stream
  auto message = [&](const std::string& bytes) {
    try {
      load_image(written(dir, "bad.png", bytes));
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Io);
      return std::string(e.what());
    }
    return std::string("(loaded)");
  };
  EXPECT_NE(message(damaged).find("corrupt"), std::string::npos) << message(damaged);
  const std::string cut = good.substr(0, good.find("IEND") - 30);
  EXPECT_NE(message(cut).find("is corrupt or truncated (its data ends early)"), std::string::npos) << message(cut);
}

TEST(PngRows, KindsLeftToStbStillLoad) {
  test::TempDir dir;
  // A 2x1 palette image (entries red and blue): stb expands it to RGB.
  std::string plte;
  chunk(plte, "PLTE", std::string("\xff\x00\x00\x00\x00\xff", 6));
  const Image palette = load_image(written(dir, "p.png", png_of(2, 1, 8, 3, std::string("\0\0\1", 3), 0, plte)));
  ASSERT_EQ(palette.channels(), 3);
  EXPECT_EQ(palette.elements<std::uint8_t>()[0], 255);
  EXPECT_EQ(palette.elements<std::uint8_t>()[5], 255);
  // Grey with a transparent value: stb adds an alpha channel.
  std::string trns;
  chunk(trns, "tRNS", std::string("\0\x07", 2));
  const Image keyed = load_image(written(dir, "t.png", png_of(2, 1, 8, 0, std::string("\0\x07\x09", 3), 0, trns)));
  EXPECT_EQ(keyed.channels(), 2);
}

}  // namespace
}  // namespace ks
