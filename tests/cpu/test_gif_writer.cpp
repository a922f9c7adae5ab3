// GifAnimation: what it writes decodes (giflib's decoder, and stb_image for the first frame) to the frames, palette,
// delay and loop it was given; bad requests are usage errors; nothing appears at the target unless finish()
// succeeds, and an existing file there survives a failed or abandoned animation.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>

#include "core/error.hpp"
#include "io/gif_writer.hpp"
#include "io/image_io.hpp"
#include "support/test_support.hpp"

#if KS_HAVE_GIF
#include "support/gif_decode.hpp"
#endif

namespace ks::test {
namespace {

namespace fs = std::filesystem;

#define KS_REQUIRE_GIF()                                                       \
  try {                                                                        \
    require_gif_support();                                                     \
  } catch (const Error& e) {                                                   \
    GTEST_SKIP() << e.what();                                                  \
  }

// Random indices, so that compression, row order and every value of the palette are exercised.
Image random_indices(int w, int h, unsigned seed) {
  Image img(w, h, 1, ElemType::U8);
  std::mt19937 rng(seed);
  for (auto& v : img.elements<std::uint8_t>()) v = std::uint8_t(rng() & 0xff);
  return img;
}

// A palette where every entry differs from every other, so that a shifted lookup cannot pass.
std::array<Rgb8, 256> distinct_palette() {
  std::array<Rgb8, 256> p{};
  for (int i = 0; i < 256; ++i) p[std::size_t(i)] = {std::uint8_t(i), std::uint8_t(255 - i), std::uint8_t(i * 7)};
  return p;
}

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().filename());
  return v;
}

#if KS_HAVE_GIF
TEST(GifAnimation, DecodesToTheFramesPaletteDelayAndLoop) {
  TempDir dir;
  const auto palette = distinct_palette();
  // Odd sizes, one of them 1 wide: rows must not be padded or reordered.
  for (auto [w, h] : {std::pair{37, 11}, std::pair{1, 5}, std::pair{1, 1}}) {
    SCOPED_TRACE(testing::Message() << w << "x" << h);
    const fs::path path = dir / "anim.gif";
    std::vector<Image> frames;
    for (unsigned k = 0; k < 3; ++k) frames.push_back(random_indices(w, h, 100 + k));
    GifAnimation gif(path, w, h, palette, 7);
    for (const Image& f : frames) gif.add_frame(f);
    EXPECT_EQ(gif.frames(), 3);
    gif.finish();

    const DecodedGif d = decode_gif(path);
    EXPECT_EQ(d.width, w);
    EXPECT_EQ(d.height, h);
    ASSERT_EQ(d.palette.size(), 256u);
    for (std::size_t i = 0; i < 256; ++i) EXPECT_EQ(d.palette[i], palette[i]) << i;
    ASSERT_EQ(d.frames.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      const auto expected = frames[k].elements<std::uint8_t>();
      EXPECT_TRUE(std::equal(expected.begin(), expected.end(), d.frames[k].begin())) << "frame " << k;
      EXPECT_EQ(d.delays_cs[k], 7);
    }
    EXPECT_TRUE(d.loops);

    // A second decoder: stb_image's first frame, RGBA through the palette.
    const Image first = load_image(path);
    ASSERT_EQ(first.width(), w);
    ASSERT_EQ(first.height(), h);
    const auto idx = frames[0].elements<std::uint8_t>();
    const auto rgba = first.elements<std::uint8_t>();
    ASSERT_EQ(first.channels(), 4);
    for (std::size_t i = 0; i < idx.size(); ++i)
      for (int c = 0; c < 3; ++c) ASSERT_EQ(rgba[4 * i + std::size_t(c)], palette[idx[i]][std::size_t(c)]) << i;
    fs::remove(path);
  }
}
#endif

TEST(GifAnimation, BadRequestsAreUsageErrors) {
  KS_REQUIRE_GIF();
  TempDir dir;
  const auto gray = gray_palette();
  auto usage = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.kind() == ErrorKind::Usage;
    }
    return false;
  };
  EXPECT_TRUE(usage([&] { GifAnimation(dir / "a.gif", 0, 5, gray, 4); }));
  EXPECT_TRUE(usage([&] { GifAnimation(dir / "a.gif", 5, 65536, gray, 4); }));
  EXPECT_TRUE(usage([&] { GifAnimation(dir / "a.gif", 5, 5, gray, 0); }));
  EXPECT_TRUE(usage([&] { GifAnimation(dir / "a.gif", 5, 5, gray, 65536); }));
  EXPECT_TRUE(usage([&] { GifAnimation(dir.path() / "", 5, 5, gray, 4); }));  // a folder, not a file

  GifAnimation gif(dir / "a.gif", 4, 3, gray, 4);
  EXPECT_TRUE(usage([&] { gif.add_frame(random_indices(3, 4, 1)); }));                // transposed
  EXPECT_TRUE(usage([&] { gif.add_frame(Image(4, 3, 3, ElemType::U8)); }));            // RGB
  EXPECT_TRUE(usage([&] { gif.add_frame(Image(4, 3, 1, ElemType::F32)); }));           // not indices
  EXPECT_TRUE(usage([&] { gif.finish(); }));                                          // no frame yet
  gif.add_frame(random_indices(4, 3, 2));
  gif.finish();
  EXPECT_TRUE(usage([&] { gif.add_frame(random_indices(4, 3, 3)); }));  // after finish
  EXPECT_TRUE(fs::exists(dir / "a.gif"));
}

TEST(GifAnimation, NothingAppearsUnlessFinishedAndAnExistingFileSurvives) {
  KS_REQUIRE_GIF();
  TempDir dir;
  const fs::path target = dir / "keep.gif";
  write_text(target, "the old content");
  {
    GifAnimation gif(target, 8, 8, gray_palette(), 4);
    gif.add_frame(random_indices(8, 8, 4));
    // Abandoned (an error or a cancel in the caller): no finish().
  }
  EXPECT_EQ(read_text(target), "the old content");
  EXPECT_EQ(files_in(dir.path()), std::vector<fs::path>{"keep.gif"});  // no temporary left behind

  {
    GifAnimation gif(dir / "new.gif", 8, 8, gray_palette(), 4);
    gif.add_frame(random_indices(8, 8, 5));
  }
  EXPECT_FALSE(fs::exists(dir / "new.gif"));
}

TEST(GifAnimation, AFolderThatCannotBeWrittenIsAnIoError) {
  KS_REQUIRE_GIF();
  TempDir dir;
  try {
    GifAnimation gif(dir / "no" / "such" / "folder.gif", 4, 4, gray_palette(), 4);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(std::string(e.what()).find("no such directory"), std::string::npos) << e.what();
  }
}

TEST(GifAnimation, BuildsWithoutGiflibSayHowToGetIt) {
  try {
    require_gif_support();
    GTEST_SKIP() << "this build writes GIFs";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.hint().find("libgif-dev"), std::string::npos) << e.hint();
  }
}

}  // namespace
}  // namespace ks::test
