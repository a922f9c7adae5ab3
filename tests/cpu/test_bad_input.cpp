// Bad files and failed writes: each gets a specific error, and a failed save never damages what was on disk.
#include <csignal>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/image.hpp"
#include "io/atomic_file.hpp"
#include "io/image_io.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

// Runs fn, expects a ks::Error of `kind`, returns it for checks on the wording.
template <class Fn>
Error expect_error(ErrorKind kind, Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(int(e.kind()), int(kind)) << e.full_message();
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a ks::Error: " << e.what();
    return Error(ErrorKind::Internal, e.what());
  }
  ADD_FAILURE() << "no error thrown";
  return Error(ErrorKind::Internal, "none");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

#define EXPECT_CONTAINS(text, part) EXPECT_TRUE(contains(text, part)) << "\"" << (text) << "\" lacks \"" << (part) << "\""

// PNG CRC-32 (ISO 3309), written out here so that crafted files do not depend on the code under test.
std::uint32_t crc32(const std::string& bytes) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

std::string be32(std::uint32_t v) {
  return {char(v >> 24), char((v >> 16) & 0xFF), char((v >> 8) & 0xFF), char(v & 0xFF)};
}

// A PNG signature and IHDR chunk (8-bit RGB) and nothing else: all a decoder needs to learn the size.
std::string png_header(std::uint32_t width, std::uint32_t height) {
  const std::string ihdr = "IHDR" + be32(width) + be32(height) + std::string("\x08\x02\x00\x00\x00", 5);
  return std::string("\x89PNG\r\n\x1a\n", 8) + be32(13) + ihdr + be32(crc32(ihdr));
}

// ---- loading ----

TEST(BadInput, MissingFile) {
  test::TempDir dir;
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(dir / "nope.png"); });
  EXPECT_CONTAINS(std::string(e.what()), "nope.png");
  EXPECT_CONTAINS(std::string(e.what()), "does not exist");
}

TEST(BadInput, FolderInsteadOfFile) {
  test::TempDir dir;
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(dir.path()); });
  EXPECT_CONTAINS(std::string(e.what()), "is a folder");
}

TEST(BadInput, UnreadableFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
  test::TempDir dir;
  const fs::path p = write_bytes(dir / "locked.png", "x");
  fs::permissions(p, fs::perms::none);
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(p); });
  EXPECT_CONTAINS(std::string(e.what()), "Permission denied");
}

TEST(BadInput, EmptyFile) {
  test::TempDir dir;
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(write_bytes(dir / "empty.png", "")); });
  EXPECT_CONTAINS(std::string(e.what()), "empty.png");
  EXPECT_CONTAINS(std::string(e.what()), "empty (0 bytes)");
  const Error m = expect_error(ErrorKind::Io, [] { load_image_from_memory({}, "clipboard"); });
  EXPECT_CONTAINS(std::string(m.what()), "'clipboard' is empty");
}

TEST(BadInput, TextFileNamedPng) {
  test::TempDir dir;
  const fs::path p = write_bytes(dir / "notes.png", "these are my notes, not a picture\n");
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(p); });
  EXPECT_CONTAINS(std::string(e.what()), "not an image in a supported format");
  EXPECT_CONTAINS(std::string(e.what()), "stb: ");  // stb's reason is kept
  EXPECT_CONTAINS(e.hint(), "PNG");                // and the supported formats are listed
  EXPECT_CONTAINS(e.hint(), "JPEG");
}

// A truncated file's message says what is wrong in words: no empty "(stb: )", no stb code such as "outofdata",
// and no stale reason of another format's loader ("bad png sig" for a JPEG).
TEST(BadInput, TruncatedFilesAreExplainedInWords) {
  test::TempDir dir;
  const Image img = test::random_image(64, 48, 3, ElemType::U8, 5);
  for (const char* ext : {"png", "jpg"}) {
    const fs::path whole = dir / (std::string("whole.") + ext);
    save_image(img, whole);
    std::ifstream in(whole, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t cut : {bytes.size() / 2, bytes.size() - 8, std::size_t(200)}) {
      const fs::path p = write_bytes(dir / (std::string("cut.") + ext), bytes.substr(0, cut));
      const Error e = expect_error(ErrorKind::Io, [&] { load_image(p); });
      const std::string what = e.what();
      EXPECT_CONTAINS(what, "corrupt or truncated");
      EXPECT_EQ(what.find("(stb: )"), std::string::npos) << what;
      EXPECT_EQ(what.find("outofdata"), std::string::npos) << what;
      if (std::string(ext) == "jpg") {
        EXPECT_EQ(what.find("png"), std::string::npos) << what;
      }
    }
  }
}

TEST(BadInput, GarbageBytes) {
  test::TempDir dir;
  std::string garbage;
  for (int i = 0; i < 300; ++i) garbage += char((i * 73 + 11) % 256);
  expect_error(ErrorKind::Io, [&] { load_image(write_bytes(dir / "g.bin", garbage)); });
}

TEST(BadInput, UnsupportedFormatIsNamed) {
  test::TempDir dir;
  const fs::path p = write_bytes(dir / "scan.tif", std::string("II*\0\x08\0\0\0", 8) + std::string(100, '\0'));
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(p); });
  EXPECT_CONTAINS(std::string(e.what()), "TIFF");
  EXPECT_CONTAINS(e.hint(), "convert it to PNG");
}

TEST(BadInput, ZeroSizedPngHeader) {
  test::TempDir dir;
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(write_bytes(dir / "zero.png", png_header(0, 0))); });
  EXPECT_CONTAINS(std::string(e.what()), "looks like a PNG file but its header is corrupt");
}

TEST(BadInput, PngSignatureOnly) {
  test::TempDir dir;
  const fs::path p = write_bytes(dir / "sig.png", std::string("\x89PNG\r\n\x1a\n", 8));
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(p); });
  EXPECT_CONTAINS(std::string(e.what()), "PNG");
}

TEST(BadInput, TruncatedPng) {
  test::TempDir dir;
  save_image(test::random_image(64, 64, 3, ElemType::U8, 1), dir / "whole.png");
  const std::string whole = read_text(dir / "whole.png");
  ASSERT_GT(whole.size(), 1000u);
  const fs::path half = write_bytes(dir / "half.png", whole.substr(0, whole.size() / 2));
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(half); });
  EXPECT_CONTAINS(std::string(e.what()), "half.png");
  EXPECT_CONTAINS(std::string(e.what()), "PNG 64x64");
  EXPECT_CONTAINS(std::string(e.what()), "corrupt or truncated");
  // The same from memory, named as asked.
  const std::vector<unsigned char> bytes(whole.begin(), whole.begin() + std::ptrdiff_t(whole.size() / 2));
  const Error m = expect_error(ErrorKind::Io, [&] { load_image_from_memory(bytes, "download"); });
  EXPECT_CONTAINS(std::string(m.what()), "'download'");
}

TEST(BadInput, TruncatedBmp) {
  // stb_image would fill the missing rows with zeros; the size check catches it.
  test::TempDir dir;
  save_image(test::random_image(20, 10, 3, ElemType::U8, 1), dir / "whole.bmp");
  const std::string whole = read_text(dir / "whole.bmp");
  ASSERT_EQ(whole.size(), 14u + 40 + 10 * 60);  // headers + 10 rows of 60 bytes (already a multiple of 4)
  const fs::path cut = write_bytes(dir / "cut.bmp", whole.substr(0, whole.size() - 100));
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(cut); });
  EXPECT_CONTAINS(std::string(e.what()), "(BMP 20x10) is truncated: it has 554 bytes, its header announces 654");
}

TEST(BadInput, TruncatedPpm) {
  test::TempDir dir;
  // A comment in the header; 2x2 RGB needs 12 raster bytes after the 26-byte header, only 7 are there.
  const std::string header = "P6\n# made by hand\n2 2\n255\n";
  ASSERT_EQ(header.size(), 26u);
  const fs::path p = write_bytes(dir / "short.ppm", header + "1234567");
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(p); });
  EXPECT_CONTAINS(std::string(e.what()), "it has 33 bytes, its header announces 38");
  // Complete, it loads.
  Image whole = load_image(write_bytes(dir / "whole.ppm", header + "123456789abc"));
  EXPECT_EQ(whole.shape(), (ImageShape{2, 2, 3, ElemType::U8}));
  EXPECT_EQ(whole.elements<std::uint8_t>()[11], 'c');
}

TEST(BadInput, HugeDimensionsRefusedByTheDefaultLimit) {
  test::TempDir dir;
  // 100000 x 100000 RGB = 30 GB; the file holds a header only, so decoding would fail (or allocate) if attempted.
  const fs::path p = write_bytes(dir / "huge.ppm", "P6\n100000 100000\n255\n");
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(p); });
  EXPECT_CONTAINS(std::string(e.what()), "100000x100000");
  EXPECT_CONTAINS(std::string(e.what()), "27.9 GiB");  // 3e10 / 2^30
  EXPECT_CONTAINS(std::string(e.what()), "limit of 4.0 GiB");
}

TEST(BadInput, CraftedPngHeaderRefusedByACustomLimit) {
  test::TempDir dir;
  // 16000 x 16000 RGB = 768,000,000 bytes: within stb's own 1 GiB PNG limit, over ours.
  const fs::path p = write_bytes(dir / "big.png", png_header(16000, 16000));
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(p, LoadLimits{.max_bytes = 256u << 20}); });
  EXPECT_CONTAINS(std::string(e.what()), "16000x16000 with 3 channel(s) of u8");
  EXPECT_CONTAINS(std::string(e.what()), "732.4 MiB");  // 768e6 / 2^20
  EXPECT_CONTAINS(std::string(e.what()), "limit of 256.0 MiB");
}

TEST(BadInput, PngBeyondStbsOwnLimitSaysSo) {
  test::TempDir dir;
  // 30000 x 30000 RGB = 2.7e9 bytes: within our default limit, but stb refuses PNGs over 1 GiB from the header.
  const fs::path p = write_bytes(dir / "giant.png", png_header(30000, 30000));
  const Error e = expect_error(ErrorKind::Io, [&] { load_image(p); });
  EXPECT_CONTAINS(std::string(e.what()), "30000x30000 PNG image (2.5 GiB decoded)");  // 2.7e9 / 2^30
  EXPECT_CONTAINS(std::string(e.what()), "more than stb_image decodes");
}

TEST(BadInput, LimitAppliesToGenuineImages) {
  test::TempDir dir;
  save_image(test::random_image(10, 10, 3, ElemType::U8, 2), dir / "small.png");  // 300 bytes decoded
  expect_error(ErrorKind::Io, [&] { load_image(dir / "small.png", LoadLimits{.max_bytes = 299}); });
  EXPECT_EQ(load_image(dir / "small.png", LoadLimits{.max_bytes = 300}).byte_size(), 300u);
}

// ---- saving ----

TEST(BadSave, UnknownExtensionIsUsageAndWritesNothing) {
  test::TempDir dir;
  Image img = test::random_image(4, 4, 3, ElemType::U8, 3);
  const Error e = expect_error(ErrorKind::Usage, [&] { save_image(img, dir / "out.gif"); });
  EXPECT_CONTAINS(std::string(e.what()), "'.gif'");
  EXPECT_CONTAINS(e.hint(), ".png");
  EXPECT_CONTAINS(e.hint(), ".hdr");
  const Error none = expect_error(ErrorKind::Usage, [&] { save_image(img, dir / "out"); });
  EXPECT_CONTAINS(std::string(none.what()), "no extension");
  EXPECT_TRUE(entries(dir.path()).empty());
}

TEST(BadSave, BadOptionsAreUsage) {
  test::TempDir dir;
  Image img = test::random_image(4, 4, 3, ElemType::U8, 4);
  expect_error(ErrorKind::Usage, [&] { save_image(img, dir / "a.jpg", {.jpeg_quality = 0, .png_bit_depth = std::nullopt}); });
  expect_error(ErrorKind::Usage, [&] { save_image(img, dir / "a.jpg", {.jpeg_quality = 101, .png_bit_depth = std::nullopt}); });
  expect_error(ErrorKind::Usage, [&] { save_image(img, dir / "a.png", {.png_bit_depth = 12}); });
  expect_error(ErrorKind::Usage, [&] { save_image(img, dir / "a.tga", {.png_bit_depth = 8}); });
  expect_error(ErrorKind::Usage, [&] { save_image(Image(), dir / "a.png"); });
  EXPECT_TRUE(entries(dir.path()).empty());
}

TEST(BadSave, SizesTheFormatCannotHoldAreUsage) {
  // JPEG and TGA store width and height in 16 bits; stb would write the size modulo 65536.
  test::TempDir dir;
  Image wide(70000, 1, 1, ElemType::U8);
  for (const char* name : {"w.jpg", "w.tga"}) {
    const Error e = expect_error(ErrorKind::Usage, [&] { save_image(wide, dir / name); });
    EXPECT_CONTAINS(std::string(e.what()), "at most 65535x65535, this one is 70000x1");
  }
  EXPECT_TRUE(entries(dir.path()).empty());
  save_image(wide, dir / "w.png");  // PNG has 32-bit sizes
  EXPECT_EQ(load_image(dir / "w.png").width(), 70000);
}

TEST(BadSave, MissingDirectoryLeavesNothingBehind) {
  test::TempDir dir;
  Image img = test::random_image(4, 4, 3, ElemType::U8, 5);
  const Error e = expect_error(ErrorKind::Io, [&] { save_image(img, dir / "no" / "such" / "a.png"); });
  EXPECT_CONTAINS(std::string(e.what()), "a.png");
  EXPECT_CONTAINS(std::string(e.what()), "no such directory");
  EXPECT_CONTAINS(e.hint(), "create the folder");
  EXPECT_TRUE(entries(dir.path()).empty());
}

TEST(BadSave, FolderInTheWay) {
  test::TempDir dir;
  fs::create_directory(dir / "taken.png");
  const Error e =
      expect_error(ErrorKind::Io, [&] { save_image(test::random_image(4, 4, 1, ElemType::U8, 6), dir / "taken.png"); });
  EXPECT_CONTAINS(std::string(e.what()), "directory");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"taken.png"});
  EXPECT_TRUE(fs::is_directory(dir / "taken.png"));
}

TEST(AtomicFile, WriterExceptionKeepsTheOldFile) {
  test::TempDir dir;
  write_text_atomically(dir / "data.json", "old content");
  const Error e = expect_error(ErrorKind::Io, [&] {
    write_file_atomically(dir / "data.json", [](std::FILE* f) {
      std::fputs("half of the new con", f);
      throw std::runtime_error("ran out of rows");
    });
  });
  EXPECT_CONTAINS(std::string(e.what()), "data.json");
  EXPECT_CONTAINS(std::string(e.what()), "ran out of rows");
  EXPECT_EQ(read_text(dir / "data.json"), "old content");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"data.json"});  // no temporary left
}

TEST(AtomicFile, KsErrorFromWriterKeepsItsKind) {
  test::TempDir dir;
  const Error e = expect_error(ErrorKind::Usage, [&] {
    write_file_atomically(dir / "x.csv", [](std::FILE*) { throw_usage("no such column", "list the columns"); });
  });
  EXPECT_EQ(e.hint(), "list the columns");
  EXPECT_TRUE(entries(dir.path()).empty());
}

TEST(AtomicFile, WritesTextAndKeepsPermissions) {
  test::TempDir dir;
  write_text_atomically(dir / "t.txt", "first");
  fs::permissions(dir / "t.txt", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_text_atomically(dir / "t.txt", "second, longer");
  EXPECT_EQ(read_text(dir / "t.txt"), "second, longer");
  EXPECT_EQ(fs::status(dir / "t.txt").permissions(),
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST(AtomicFile, NewFileIsNotPrivate) {
  // mkstemp creates 0600; a saved image must be readable like any file the user creates (0666 minus umask).
  test::TempDir dir;
  const mode_t mask = ::umask(022);
  write_text_atomically(dir / "n.txt", "x");
  ::umask(mask);
  EXPECT_EQ(fs::status(dir / "n.txt").permissions(), fs::perms(0644));
}

// Makes writes past `bytes` fail with EFBIG (as a full disk would fail them) for the object's lifetime.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);  // else the kernel kills the process instead of failing write()
    ::getrlimit(RLIMIT_FSIZE, &old_);
    rlimit lim = old_;
    lim.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &lim);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit old_{};
  void (*old_handler_)(int) = nullptr;
};

TEST(BadSave, FailedWriteKeepsTheOldFileAndLeavesNoPartialFile) {
  test::TempDir dir;
  Image small = test::random_image(8, 8, 3, ElemType::U8, 7);
  Image big = test::random_image(512, 512, 4, ElemType::U8, 8);  // ~1 MB of incompressible PNG
  save_image(small, dir / "keep.png");
  const std::string before = read_text(dir / "keep.png");
  ASSERT_LT(before.size(), 64u * 1024);

  std::string what, hint;
  ErrorKind kind = ErrorKind::Internal;
  {
    FileSizeLimit limit(64 * 1024);
    try {
      save_image(big, dir / "keep.png");
    } catch (const Error& e) {
      what = e.what(), hint = e.hint(), kind = e.kind();
    }
  }
  EXPECT_EQ(int(kind), int(ErrorKind::Io)) << what;
  EXPECT_CONTAINS(what, "keep.png");
  EXPECT_CONTAINS(what, "File too large");
  EXPECT_CONTAINS(hint, "ulimit");
  EXPECT_EQ(read_text(dir / "keep.png"), before);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"keep.png"});
  EXPECT_TRUE(test::images_match(load_image(dir / "keep.png"), small));
}

TEST(BadSave, FailedWriteOfANewFileCreatesNothing) {
  test::TempDir dir;
  Image big = test::random_image(512, 512, 3, ElemType::U16, 9);
  std::string what;
  {
    FileSizeLimit limit(16 * 1024);
    try {
      save_image(big, dir / "new.png");  // the 16-bit encoder's path
    } catch (const Error& e) {
      what = e.what();
    }
  }
  EXPECT_CONTAINS(what, "new.png");
  EXPECT_TRUE(entries(dir.path()).empty());
}

}  // namespace
}  // namespace ks
