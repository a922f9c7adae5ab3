// load_image / load_image_from_memory: one decoding path through stb_image's callbacks, with the size limit checked
// from the header before decoding, errors worded from the file's magic numbers, and workarounds for stb_image's
// blind spots (16-bit PSD, 16-bit PNM byte order, truncated BMP/PNM).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

#include <sys/stat.h>

#include <fmt/format.h>
#include <stb_image.h>

#include "core/error.hpp"
#include "io/image_io.hpp"
#include "io/npy_image.hpp"
#include "io/png_rows.hpp"

namespace ks {

namespace fs = std::filesystem;
using namespace std::string_view_literals;

std::string supported_load_formats() {
  return "PNG (8/16-bit), JPEG (baseline and progressive), BMP, TGA, GIF (first frame), PSD (composite), "
         "HDR (Radiance), PNM (binary PGM/PPM), NPY (u8/f32 arrays H x W or H x W x C)";
}

namespace {

// A double, as sizes read from a hostile header can exceed size_t.
std::string human_bytes(double n) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB"};
  int u = 0;
  while (n >= 1024.0 && u < 7) {
    n /= 1024.0;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} bytes", n) : fmt::format("{:.1f} {}", n, units[u]);
}

// What the first bytes say the file is, to word errors: stb only says "unknown image type" or a terse reason.
struct Sniffed {
  std::string_view name;  // empty: not recognised
  bool supported = false;
};

Sniffed sniff_format(std::span<const unsigned char> head) {
  auto starts = [&](std::string_view magic, std::size_t at = 0) {
    return head.size() >= at + magic.size() && std::memcmp(head.data() + at, magic.data(), magic.size()) == 0;
  };
  if (starts("\x89PNG\r\n\x1a\n")) return {"PNG", true};
  if (starts("\xff\xd8\xff")) return {"JPEG", true};
  if (starts("GIF87a") || starts("GIF89a")) return {"GIF", true};
  if (starts("BM")) return {"BMP", true};
  if (starts("8BPS")) return {"PSD", true};
  if (starts("#?RADIANCE") || starts("#?RGBE")) return {"HDR", true};
  if (starts("P5") || starts("P6")) return {"PNM", true};
  if (starts("P1") || starts("P2") || starts("P3") || starts("P4")) return {"ASCII or 1-bit PNM", false};
  if (starts("P7")) return {"PAM", false};
  if (starts("II*\0"sv) || starts("MM\0*"sv)) return {"TIFF", false};
  if (starts("RIFF") && starts("WEBP", 8)) return {"WebP", false};
  if (starts("ftyp", 4)) return {"HEIF/AVIF/MP4", false};
  if (starts("\0\0\0\x0cjP  "sv) || starts("\xff\x4f\xff\x51")) return {"JPEG 2000", false};
  if (starts("%PDF")) return {"PDF", false};
  return {};
}

// Where stb reads from. Going through callbacks lets files and memory share one decoding path, and avoids the
// int length limit of stb's *_from_memory functions.
class Source {
 public:
  virtual ~Source() = default;
  virtual int read(char* data, int size) = 0;
  virtual void skip(int n) = 0;
  virtual bool eof() = 0;
  virtual void rewind() = 0;
  // errno of a failed read, 0 if none; stb reports a read error as "corrupt", which would mislead.
  virtual int read_error() const { return 0; }

  stbi_io_callbacks callbacks() {
    return {[](void* user, char* data, int size) { return static_cast<Source*>(user)->read(data, size); },
            [](void* user, int n) { static_cast<Source*>(user)->skip(n); },
            [](void* user) { return static_cast<Source*>(user)->eof() ? 1 : 0; }};
  }
};

class MemorySource final : public Source {
 public:
  explicit MemorySource(std::span<const unsigned char> bytes) : bytes_(bytes) {}
  int read(char* data, int size) override {
    const std::size_t n = std::min(std::size_t(std::max(size, 0)), bytes_.size() - pos_);
    std::memcpy(data, bytes_.data() + pos_, n);
    pos_ += n;
    return int(n);
  }
  void skip(int n) override {
    if (n < 0) pos_ -= std::min(pos_, std::size_t(-(long long)n));
    else pos_ += std::min(std::size_t(n), bytes_.size() - pos_);
  }
  bool eof() override { return pos_ >= bytes_.size(); }
  void rewind() override { pos_ = 0; }

 private:
  std::span<const unsigned char> bytes_;
  std::size_t pos_ = 0;
};

class FileSource final : public Source {
 public:
  explicit FileSource(std::FILE* f) : file_(f) {}
  int read(char* data, int size) override {
    const std::size_t n = std::fread(data, 1, std::size_t(std::max(size, 0)), file_);
    if (n < std::size_t(std::max(size, 0)) && std::ferror(file_) && !error_) error_ = errno ? errno : EIO;
    return int(n);
  }
  void skip(int n) override {
    // As stb's own stdio callbacks: peek a byte so that eof() notices a skip to the end.
    std::fseek(file_, n, SEEK_CUR);
    const int ch = std::fgetc(file_);
    if (ch != EOF) std::ungetc(ch, file_);
  }
  bool eof() override { return std::feof(file_) || std::ferror(file_); }
  void rewind() override {
    std::clearerr(file_);
    std::fseek(file_, 0, SEEK_SET);
  }
  int read_error() const override { return error_; }

 private:
  std::FILE* file_;
  int error_ = 0;
};

std::string stb_reason() {
  const char* r = stbi_failure_reason();
  return r ? r : "";
}

// What stb's failure reason adds to a message about a file of `format` ("PNG", "JPEG", ...; empty when unknown),
// as " (...)", or nothing. Its reasons are short codes ("outofdata", or "IEN" for a PNG cut inside its end chunk),
// and a reason left by a loader stb tried before the right one names another format ("bad png sig" for a JPEG):
// the codes that say something are put in words, stale and empty ones are left out.
std::string stb_detail(std::string_view format) {
  std::string reason = stb_reason();
  if (reason == "outofdata") return " (its data ends early)";
  if (reason == "expected marker") return " (a JPEG marker is missing where one must be)";
  if (reason.size() < 4) return {};
  std::string lower = reason;
  for (char& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  std::string own(format);
  for (char& ch : own) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  for (const char* other : {"png", "jpeg", "jpg", "bmp", "gif", "psd", "tga", "hdr", "pnm", "ppm", "pgm"})
    if (lower.find(other) != std::string::npos && own.find(other) == std::string::npos &&
        !(own == "jpeg" && std::string_view(other) == "jpg"))
      return {};
  return " (stb: " + reason + ")";
}

void throw_if_read_failed(const Source& src, const std::string& name) {
  if (const int err = src.read_error()) {
    throw_io(fmt::format("could not read '{}': {}", name, std::error_code(err, std::generic_category()).message()),
             "check that the file is readable and the disk is healthy");
  }
}

constexpr const char* kTooLargeHint =
    "if the image is genuine, downscale or split it with another tool; otherwise the file is corrupt";

// Enough of the start of a file for the magic numbers and the header fields read below (PNM headers may carry
// comments, hence more than the binary formats need).
constexpr std::size_t kHeadBytes = 256;

std::uint32_t read_be(std::span<const unsigned char> b, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | b[at + i];
  return v;
}

// stbi_info only ever reports "unknown image type" when it fails, even when the PNG decoder refused the size
// (stb decodes PNG up to 1 GiB). Reading IHDR here lets the message say so.
std::optional<std::string> png_too_large_message(std::span<const unsigned char> head, const std::string& name) {
  // Signature (8), chunk length (4), "IHDR", width, height, bit depth, color type.
  if (head.size() < 26 || std::memcmp(head.data() + 12, "IHDR", 4) != 0) return std::nullopt;
  const std::uint32_t w = read_be(head, 16, 4), h = read_be(head, 20, 4);
  const int depth = head[24], color = head[25];
  constexpr int channels_of_color[] = {1, 0, 3, 1, 2, 0, 4};  // gray, -, RGB, palette, gray+alpha, -, RGBA
  const int c = color < 7 ? channels_of_color[color] : 0;
  if (w == 0 || h == 0 || c == 0) return std::nullopt;
  // stb's own test, with a palette counted as 1 channel as stb does.
  const bool too_large = w > (1u << 24) || h > (1u << 24) || (1u << 30) / w / std::uint32_t(c) < h;
  if (!too_large) return std::nullopt;
  const double decoded = double(w) * double(h) * (color == 3 ? 3 : c) * (depth == 16 ? 2 : 1);
  return fmt::format("'{}' declares a {}x{} PNG image ({} decoded), more than stb_image decodes (1 GiB for PNG)",
                     name, w, h, human_bytes(decoded));
}

[[noreturn]] void throw_unreadable_header(std::span<const unsigned char> head, const std::string& name) {
  const Sniffed kind = sniff_format(head);
  if (kind.name.empty()) {
    throw_io(fmt::format("'{}' is not an image in a supported format{}", name, stb_detail("")),
             "supported formats: " + supported_load_formats());
  }
  if (!kind.supported) {
    throw_io(fmt::format("'{}' is a {} file, which cannot be loaded", name, kind.name),
             "convert it to PNG; supported formats: " + supported_load_formats());
  }
  if (kind.name == "PNG") {
    if (auto message = png_too_large_message(head, name)) throw_io(*message, kTooLargeHint);
  }
  // stb's reason is left out: after a failed stbi_info it is always "unknown image type", which would mislead.
  throw_io(fmt::format("'{}' looks like a {} file but its header is corrupt or of an unsupported kind", name,
                       kind.name),
           "the file is damaged; export or download it again, or convert it to a plain 8-bit PNG");
}

// stb_image 2.27's stbi_is_16_bit never says yes for PSD (the skip over the size fields is compiled out), so the
// depth field is read here; stbi_load_16 then decodes 16-bit PSD correctly.
bool is_16bit_psd(std::span<const unsigned char> head) {
  return sniff_format(head).name == "PSD" && head.size() >= 24 && read_be(head, 22, 2) == 16;
}

// stb_image 2.27 returns 16-bit PNM samples in the file's big-endian byte order; later versions swap them.
// Asking the linked library once keeps the result right with either.
bool stb_leaves_pnm16_big_endian() {
  static const bool big_endian = [] {
    const unsigned char pgm[] = "P5\n1 1\n65535\n\x01\x02";
    int w = 0, h = 0, c = 0;
    stbi_us* v = stbi_load_16_from_memory(pgm, int(sizeof pgm - 1), &w, &h, &c, 0);
    const bool raw = v && v[0] != 0x0102;
    stbi_image_free(v);
    return raw;
  }();
  return big_endian;
}

std::uint32_t read_le(std::span<const unsigned char> b, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | b[at + i];
  return v;
}

// Uncompressed BMP: the pixel data offset plus the rows (each padded to 4 bytes; the last row's padding is
// not required, as some writers leave it out).
std::optional<std::uint64_t> bmp_expected_size(std::span<const unsigned char> head) {
  if (head.size() < 34 || read_le(head, 14, 4) < 40) return std::nullopt;  // old OS/2 headers: left to stb
  const std::int64_t w = std::int32_t(read_le(head, 18, 4)), h = std::int32_t(read_le(head, 22, 4));
  const std::uint32_t bpp = read_le(head, 28, 2), compression = read_le(head, 30, 4);
  const bool uncompressed = compression == 0 || compression == 3;  // BI_RGB, BI_BITFIELDS
  const bool known_depth = bpp == 1 || bpp == 4 || bpp == 8 || bpp == 16 || bpp == 24 || bpp == 32;
  if (!uncompressed || !known_depth || w <= 0 || h == 0) return std::nullopt;
  const std::uint64_t row_bits = std::uint64_t(w) * bpp, stride = (row_bits + 31) / 32 * 4;
  return read_le(head, 10, 4) + stride * (std::uint64_t(h < 0 ? -h : h) - 1) + (row_bits + 7) / 8;
}

// Binary PNM: "P5"/"P6", width, height and maxval as decimal numbers between whitespace and comments, one
// whitespace byte, then the raster.
std::optional<std::uint64_t> pnm_expected_size(std::span<const unsigned char> head) {
  std::size_t i = 2;
  std::uint64_t fields[3] = {};
  for (std::uint64_t& field : fields) {
    while (i < head.size() && (std::isspace(head[i]) || head[i] == '#')) {
      if (head[i] == '#') {
        while (i < head.size() && head[i] != '\n') ++i;
      } else {
        ++i;
      }
    }
    if (i >= head.size() || !std::isdigit(head[i])) return std::nullopt;
    for (; i < head.size() && std::isdigit(head[i]); ++i) {
      field = field * 10 + std::uint64_t(head[i] - '0');
      if (field > 1'000'000'000) return std::nullopt;  // not a real image; stb will say so
    }
  }
  if (i >= head.size()) return std::nullopt;  // header longer than what was read
  const std::uint64_t channels = head[1] == '5' ? 1 : 3, sample_bytes = fields[2] > 255 ? 2 : 1;
  return i + 1 + fields[0] * fields[1] * channels * sample_bytes;
}

// stb_image reads zeros past the end of uncompressed BMP and PNM data instead of failing, so a truncated file
// would load with a black tail. Their size follows from the header. PNG, JPEG and GIF decoders notice missing
// data themselves; truncated TGA, PSD and HDR files (whose size needs decoding to know) can still load padded.
void check_not_truncated(std::span<const unsigned char> head, std::optional<std::uint64_t> total_size,
                         const std::string& name, int w, int h) {
  if (!total_size) return;
  const Sniffed kind = sniff_format(head);
  const std::optional<std::uint64_t> needed = kind.name == "BMP"   ? bmp_expected_size(head)
                                              : kind.name == "PNM" ? pnm_expected_size(head)
                                                                   : std::nullopt;
  if (needed && *total_size < *needed) {
    throw_io(fmt::format("'{}' ({} {}x{}) is truncated: it has {} bytes, its header announces {}", name, kind.name,
                         w, h, *total_size, *needed),
             "the file is incomplete; export or download it again");
  }
}

void check_limit(int w, int h, int c, ElemType type, const LoadLimits& limits, const std::string& name) {
  std::size_t bytes = std::size_t(w);
  const bool overflow = __builtin_mul_overflow(bytes, std::size_t(h), &bytes) ||
                        __builtin_mul_overflow(bytes, std::size_t(c), &bytes) ||
                        __builtin_mul_overflow(bytes, elem_size(type), &bytes);
  if (overflow || bytes > limits.max_bytes) {
    throw_io(fmt::format("'{}' is {}x{} with {} channel(s) of {}: decoding it needs {}, more than the limit of {}",
                         name, w, h, c, to_string(type),
                         overflow ? std::string("more memory than can be addressed") : human_bytes(double(bytes)),
                         human_bytes(double(limits.max_bytes))),
             "if the image is genuine, raise the load limit or downscale it with another tool; otherwise the "
             "file is corrupt");
  }
}

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

// The common PNGs row by row (io/png_rows.hpp): nullopt for the kinds left to stb_image.
std::optional<Image> decode_png_in_rows(Source& src, const std::string& name, const LoadProgress& progress) {
  src.rewind();
  const PngReader reader = [&src](unsigned char* data, std::size_t size) {
    std::size_t done = 0;
    while (done < size) {  // stb's callbacks take int sizes
      const int want = int(std::min<std::size_t>(size - done, 1 << 30));
      const int got = src.read(reinterpret_cast<char*>(data + done), want);
      if (got <= 0) break;
      done += std::size_t(got);
    }
    return done;
  };
  try {
    return decode_png_rows(reader, name, progress);
  } catch (const Error& e) {
    throw_if_read_failed(src, name);  // a failing disk, rather than a "truncated" file
    throw;
  }
}

// total_size: the input's size in bytes where known (not for pipes).
Image decode(Source& src, std::span<const unsigned char> head, std::optional<std::uint64_t> total_size,
             const std::string& name, const LoadLimits& limits, const LoadProgress& progress) {
  const stbi_io_callbacks cb = src.callbacks();
  int w = 0, h = 0, c = 0;
  // The header alone first: it says how much memory decoding takes, before any is allocated.
  src.rewind();
  const bool info_ok = stbi_info_from_callbacks(&cb, &src, &w, &h, &c) != 0;
  throw_if_read_failed(src, name);
  if (!info_ok || w <= 0 || h <= 0 || c < 1 || c > 4) throw_unreadable_header(head, name);
  src.rewind();
  const bool is_hdr = stbi_is_hdr_from_callbacks(&cb, &src) != 0;
  src.rewind();
  const bool is_16 = !is_hdr && (stbi_is_16_bit_from_callbacks(&cb, &src) != 0 || is_16bit_psd(head));
  throw_if_read_failed(src, name);
  const ElemType type = is_hdr ? ElemType::F32 : is_16 ? ElemType::U16 : ElemType::U8;
  check_limit(w, h, c, type, limits, name);
  check_not_truncated(head, total_size, name, w, h);
  if (sniff_format(head).name == "PNG")
    if (std::optional<Image> rows = decode_png_in_rows(src, name, progress)) return std::move(*rows);

  src.rewind();
  int lw = 0, lh = 0, lc = 0;
  std::unique_ptr<void, StbFree> pixels(
      is_hdr  ? static_cast<void*>(stbi_loadf_from_callbacks(&cb, &src, &lw, &lh, &lc, 0))
      : is_16 ? static_cast<void*>(stbi_load_16_from_callbacks(&cb, &src, &lw, &lh, &lc, 0))
              : static_cast<void*>(stbi_load_from_callbacks(&cb, &src, &lw, &lh, &lc, 0)));
  throw_if_read_failed(src, name);
  if (!pixels) {
    const std::string r = stb_reason();
    if (r == "outofmem") {
      throw Error(ErrorKind::OutOfMemory,
                  fmt::format("out of memory decoding '{}' ({}x{}x{} {})", name, w, h, c, to_string(type)),
                  "close other programs or use a smaller image");
    }
    const Sniffed kind = sniff_format(head);
    if (r == "too large") {
      throw_io(fmt::format("'{}' ({}x{}x{}) is too large for stb_image, which decodes at most 2 GiB per image", name,
                           w, h, c),
               kTooLargeHint);
    }
    throw_io(fmt::format("'{}' ({} {}x{}) is corrupt or truncated{}", name,
                         kind.name.empty() ? std::string_view("image") : kind.name, w, h, stb_detail(kind.name)),
             "the file is damaged or incomplete; export or download it again");
  }
  if (lc < 1 || lc > 4) {
    throw Error(ErrorKind::Internal, fmt::format("stb decoded '{}' with {} channels", name, lc));
  }
  Image img(lw, lh, lc, type);
  std::memcpy(img.data(), pixels.get(), img.byte_size());
  if (type == ElemType::U16 && sniff_format(head).name == "PNM" && stb_leaves_pnm16_big_endian()) {
    for (std::uint16_t& v : img.elements<std::uint16_t>()) v = std::uint16_t((v >> 8) | (v << 8));
  }
  return img;
}

// The start of the file, for sniff_format and the header fields read above.
std::vector<unsigned char> read_head(std::FILE* f) {
  std::vector<unsigned char> head(kHeadBytes);
  head.resize(std::fread(head.data(), 1, head.size(), f));
  std::rewind(f);
  return head;
}

// A .npy file that does not start like one is refused by the .npy reader, which says what it expected.
bool is_npy_name(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  return ext == ".npy";
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

Image load_image(const fs::path& path, const LoadLimits& limits, const LoadProgress& progress) {
  const std::string name = path.string();
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    const int err = errno;
    if (err == ENOENT) throw_io(fmt::format("'{}' does not exist", name), "check the path");
    throw_io(fmt::format("cannot open '{}': {}", name, std::error_code(err, std::generic_category()).message()),
             err == EACCES ? "check the file's permissions" : "check the path");
  }
  struct stat st{};
  std::optional<std::uint64_t> total_size;
  if (::fstat(::fileno(file.get()), &st) == 0) {
    if (S_ISREG(st.st_mode)) total_size = std::uint64_t(st.st_size);
    if (S_ISDIR(st.st_mode)) throw_io(fmt::format("'{}' is a folder, not an image file", name), "give an image file");
    if (S_ISREG(st.st_mode) && st.st_size == 0) {
      throw_io(fmt::format("'{}' is empty (0 bytes)", name),
               "the file was probably not written completely; export or download it again");
    }
  }
  const std::vector<unsigned char> head = read_head(file.get());
  if (starts_like_npy(head) || is_npy_name(path)) return read_npy_image(path, limits.max_bytes);
  FileSource src(file.get());
  return decode(src, head, total_size, name, limits, progress);
}

Image load_image_from_memory(std::span<const unsigned char> bytes, const std::string& name_for_messages,
                             const LoadLimits& limits) {
  if (bytes.empty()) {
    throw_io(fmt::format("'{}' is empty (0 bytes)", name_for_messages), "give the content of an image file");
  }
  if (starts_like_npy(bytes))
    return parse_npy_image(std::as_bytes(bytes), name_for_messages, limits.max_bytes);
  MemorySource src(bytes);
  return decode(src, bytes.first(std::min(bytes.size(), kHeadBytes)), bytes.size(), name_for_messages, limits, {});
}

}  // namespace ks
