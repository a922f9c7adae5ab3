// PNGs as save_image writes them (libpng, row by row: gpu/io/png_writer.cpp), read back by a decoder other than
// the one that wrote them (stb_image) and by the app's own loader, for every channel count and both depths, on
// sizes that are not multiples of anything.
#include <stb_image.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/image.hpp"
#include "io/image_io.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

std::vector<unsigned char> file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The file through stb_image, in the Image layout the app uses (16-bit samples in host order, as stb gives them).
Image decoded_by_stb(const std::vector<unsigned char>& bytes, bool sixteen) {
  int w = 0, h = 0, c = 0;
  void* raw = sixteen ? static_cast<void*>(stbi_load_16_from_memory(bytes.data(), int(bytes.size()), &w, &h, &c, 0))
                      : static_cast<void*>(stbi_load_from_memory(bytes.data(), int(bytes.size()), &w, &h, &c, 0));
  if (!raw) return {};
  const std::unique_ptr<void, void (*)(void*)> owned(raw, stbi_image_free);
  Image image(w, h, c, sixteen ? ElemType::U16 : ElemType::U8);
  std::memcpy(image.data(), raw, image.byte_size());
  return image;
}

TEST(PngWriter, EveryChannelCountAndDepthReadsBackExactly) {
  test::TempDir dir;
  std::uint32_t seed = 40;
  for (ElemType type : {ElemType::U8, ElemType::U16})
    for (int channels = 1; channels <= 4; ++channels)
      for (auto [w, h] : {std::pair{1, 1}, {37, 23}, {1023, 7}, {3, 130}}) {
        const Image want = test::random_image(w, h, channels, type, seed++);
        const auto path = dir / "out.png";
        save_image(want, path);
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(channels) +
                     (type == ElemType::U16 ? " 16-bit" : " 8-bit"));
        const Image by_stb = decoded_by_stb(file_bytes(path), type == ElemType::U16);
        ASSERT_EQ(by_stb.shape(), want.shape()) << stbi_failure_reason();
        EXPECT_TRUE(test::images_match(by_stb, want, 0));
        EXPECT_TRUE(test::images_match(load_image(path), want, 0));
      }
}

// Smooth images compress: the writer deflates (a raw dump of the rows would be as large as the image).
TEST(PngWriter, ASmoothImageCompresses) {
  test::TempDir dir;
  Image ramp(512, 512, 1, ElemType::U8);
  for (int y = 0; y < ramp.height(); ++y)
    for (int x = 0; x < ramp.width(); ++x) ramp.row<std::uint8_t>(y)[x] = std::uint8_t((x + y) / 4);
  save_image(ramp, dir / "ramp.png");
  EXPECT_LT(std::filesystem::file_size(dir / "ramp.png"), ramp.byte_size() / 20);
  EXPECT_TRUE(test::images_match(load_image(dir / "ramp.png"), ramp, 0));
}

// A long save reports its rows and can be stopped: the fractions rise to 1; false stops it with a Cancelled error,
// and the file that was there stays as it was (no partial file, no temporary left).
TEST(PngWriter, ProgressRisesToOneAndCancelLeavesTheOldFile) {
  test::TempDir dir;
  const Image image = test::random_image(64, 1000, 1, ElemType::U8, 3);
  std::vector<double> seen;
  save_image(image, dir / "a.png", {.progress = [&](double f) {
                                      seen.push_back(f);
                                      return true;
                                    }});
  ASSERT_GE(seen.size(), 10u);
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GT(seen[i], seen[i - 1]);
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);

  const auto before = file_bytes(dir / "a.png");
  int calls = 0;
  try {
    save_image(test::random_image(64, 1000, 1, ElemType::U8, 4), dir / "a.png",
               {.progress = [&](double) { return ++calls < 3; }});
    ADD_FAILURE() << "the save was not stopped";
  } catch (const Error& e) {
    EXPECT_EQ(int(e.kind()), int(ErrorKind::Cancelled)) << e.what();
    EXPECT_NE(std::string(e.what()).find("a.png"), std::string::npos) << e.what();
  }
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(file_bytes(dir / "a.png"), before);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

}  // namespace
}  // namespace ks
