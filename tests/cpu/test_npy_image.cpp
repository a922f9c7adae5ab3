// Images in .npy files (io/npy_image.hpp) through load_image / save_image, as every front end reads and
// writes them: u8 and f32 values kept exactly, H x W and H x W x C for C = 1..4, odd shapes; the bytes NumPy
// writes; refusals of other element types, Fortran order, other shapes and channel counts, truncated and
// padded files, each naming the file and what is taken; atomic writes (a refused save leaves the old file).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

#include "core/error.hpp"
#include "io/image_io.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
void write_all(const fs::path& p, const std::string& s) {
  std::ofstream(p, std::ios::binary) << s;
}

// A .npy file as NumPy writes it: v1.0, the dictionary padded with spaces to a 64-byte boundary, then `data`.
std::string npy_file(const std::string& descr, const std::string& shape, const std::string& data,
                     const std::string& fortran = "False") {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
  dict.append((10 + dict.size() + 1 + 63) / 64 * 64 - 10 - dict.size() - 1, ' ');
  dict += '\n';
  return std::string("\x93NUMPY\x01\x00", 8) + char(dict.size() & 0xff) + char(dict.size() >> 8) + dict +
         data;
}

bool same_bytes(const Image& a, const Image& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.byte_size()) == 0;
}

TEST(NpyImage, RoundTripsU8AndF32OfEveryChannelCountAndOddShapes) {
  test::TempDir dir;
  const std::pair<int, int> sizes[] = {{1, 1}, {1023, 7}, {7, 1023}, {33, 17}};
  for (ElemType type : {ElemType::U8, ElemType::F32})
    for (int c = 1; c <= 4; ++c)
      for (auto [w, h] : sizes) {
        SCOPED_TRACE(testing::Message() << to_string(type) << " " << w << "x" << h << "x" << c);
        Image img = test::random_image(w, h, c, type, std::uint32_t(w + 7 * h + c));
        if (type == ElemType::F32) img.elements<float>()[0] = -3.25e-7f;  // outside 0..1: kept, not clamped
        const fs::path path = dir.path() / "img.npy";
        save_image(img, path);
        const Image back = load_image(path);
        EXPECT_TRUE(same_bytes(back, img));
        // The header NumPy would write: 1 channel as (H, W), more as (H, W, C); data after 64-byte alignment.
        const std::string file = read_all(path);
        const std::string shape =
            c == 1 ? fmt::format("({}, {})", h, w) : fmt::format("({}, {}, {})", h, w, c);
        EXPECT_NE(file.find("'shape': " + shape), std::string::npos) << file.substr(0, 128);
        EXPECT_NE(file.find(type == ElemType::U8 ? "'descr': '|u1'" : "'descr': '<f4'"), std::string::npos);
        EXPECT_EQ(file.size() - img.byte_size(), 128u);
        // The same bytes from memory (the app's embedded and dropped files).
        const Image from_memory = load_image_from_memory(
            std::span(reinterpret_cast<const unsigned char*>(file.data()), file.size()), "bytes");
        EXPECT_TRUE(same_bytes(from_memory, img));
      }
}

TEST(NpyImage, ReadsWhatNumpyWritesByMagicOrExtension) {
  test::TempDir dir;
  // numpy.save of numpy.array([[1, 2, 3], [4, 5, 6]], dtype=numpy.uint8), and a native-order ('=') f32 one.
  write_all(dir.path() / "a.npy", npy_file("|u1", "(2, 3)", std::string("\x01\x02\x03\x04\x05\x06", 6)));
  const Image a = load_image(dir.path() / "a.npy");
  EXPECT_EQ(a.shape(), (ImageShape{3, 2, 1, ElemType::U8}));
  EXPECT_EQ(a.elements<std::uint8_t>()[5], 6);
  const float v[2] = {0.5f, -2.0f};
  write_all(dir.path() / "b.data",
            npy_file("=f4", "(1, 1, 2)", std::string(reinterpret_cast<const char*>(v), 8)));
  const Image b = load_image(dir.path() / "b.data");  // by its magic, whatever the name
  EXPECT_EQ(b.shape(), (ImageShape{1, 1, 2, ElemType::F32}));
  EXPECT_EQ(b.elements<float>()[1], -2.0f);
}

void expect_refused(const fs::path& path, const std::string& content, const std::string& needle,
                    bool says_what_is_taken = true) {
  write_all(path, content);
  try {
    load_image(path);
    ADD_FAILURE() << "accepted; expected an error about " << needle;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io) << e.full_message();
    EXPECT_NE(e.full_message().find(needle), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find(path.string()), std::string::npos) << e.full_message();
    if (says_what_is_taken) {
      EXPECT_NE(e.full_message().find("uint8 or float32"), std::string::npos) << e.full_message();
    }
  }
}

TEST(NpyImage, RefusesOtherTypesOrdersShapesAndTruncatedFiles) {
  test::TempDir dir;
  const fs::path p = dir.path() / "bad.npy";
  const std::string six(6, '\0');
  expect_refused(p, npy_file("<f8", "(2, 3)", std::string(48, '\0')), "'<f8'");
  expect_refused(p, npy_file("<i2", "(2, 3)", std::string(12, '\0')), "'<i2'");
  expect_refused(p, npy_file("|b1", "(2, 3)", six), "'|b1'");
  expect_refused(p, npy_file("<u2", "(2, 3)", std::string(12, '\0')), "neither u8 nor f32");
  expect_refused(p, npy_file(">f4", "(2, 3)", std::string(24, '\0')), "big-endian");
  expect_refused(p, npy_file("|u1", "(2, 3)", six, "True"), "Fortran");
  expect_refused(p, npy_file("|u1", "(6,)", six), "1 dimensions");
  expect_refused(p, npy_file("|u1", "(1, 2, 3, 1)", six), "4 dimensions");
  expect_refused(p, npy_file("|u1", "(1, 1, 5)", std::string(5, '\0')), "5 channels");
  expect_refused(p, npy_file("|u1", "(2, 3, 0)", ""), "0 channels");
  expect_refused(p, npy_file("|u1", "(0, 3)", ""), "an empty image");
  expect_refused(p, npy_file("|u1", "(2, 3)", std::string(5, '\0')), "truncated");
  expect_refused(p, npy_file("<f4", "(2, 3)", std::string(23, '\0')), "truncated");
  expect_refused(p, npy_file("|u1", "(2, 3)", std::string(7, '\0')), "trailing bytes");
  expect_refused(p, npy_file("|u1", "(2, 3)", six).substr(0, 40), "truncated in the header");
  expect_refused(p, "not a numpy file at all", "does not start with");
  // A header claiming a huge image is refused from the header, before anything is allocated.
  expect_refused(p, npy_file("<f4", "(100000, 100000, 4)", ""), "load limit", false);
  // A single column may be either order.
  write_all(p, npy_file("|u1", "(3, 1)", std::string("\x07\x08\x09", 3), "True"));
  EXPECT_EQ(load_image(p).elements<std::uint8_t>()[2], 9);
}

TEST(NpyImage, SavingU16IsRefusedAndLeavesTheOldFile) {
  test::TempDir dir;
  const fs::path p = dir.path() / "out.npy";
  const Image old = test::random_image(5, 4, 1, ElemType::U8, 1);
  save_image(old, p);
  const std::string before = read_all(p);
  try {
    save_image(test::random_image(5, 4, 1, ElemType::U16, 2), p);
    ADD_FAILURE() << "a u16 image was saved as .npy";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("u8 or f32"), std::string::npos) << e.full_message();
  }
  EXPECT_EQ(read_all(p), before);
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().filename(), "out.npy") << "no temporary left behind";
  EXPECT_NE(supported_save_formats().find(".npy"), std::string::npos);
  EXPECT_NE(supported_load_formats().find("NPY"), std::string::npos);
}

// NumPy itself reads what we write and writes what we read (skipped where python3 lacks numpy).
TEST(NpyImage, NumpyReadsOursAndWeReadNumpys) {
  if (std::system("python3 -c 'import numpy' >/dev/null 2>&1") != 0) GTEST_SKIP() << "no python3 with numpy";
  test::TempDir dir;
  Image img = test::random_image(7, 5, 3, ElemType::F32, 9);
  save_image(img, dir.path() / "ours.npy");
  const std::string script =
      "import numpy as np, sys; d = sys.argv[1]; a = np.load(d + '/ours.npy');"
      "assert a.dtype == np.float32 and a.shape == (5, 7, 3), (a.dtype, a.shape);"
      "np.save(d + '/theirs.npy', (a * 2).astype(np.float32));"
      "np.save(d + '/gray.npy', np.arange(12, dtype=np.uint8).reshape(3, 4))";
  ASSERT_EQ(std::system(("python3 -c \"" + script + "\" " + dir.path().string()).c_str()), 0);
  const Image theirs = load_image(dir.path() / "theirs.npy");
  ASSERT_EQ(theirs.shape(), img.shape());
  for (std::size_t i = 0; i < img.elements<float>().size(); ++i)
    EXPECT_EQ(theirs.elements<float>()[i], img.elements<float>()[i] * 2);
  const Image gray = load_image(dir.path() / "gray.npy");
  EXPECT_EQ(gray.shape(), (ImageShape{4, 3, 1, ElemType::U8}));
  EXPECT_EQ(gray.elements<std::uint8_t>()[11], 11);
}

}  // namespace
}  // namespace ks
