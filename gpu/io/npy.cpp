#include "io/npy.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>

#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace ks {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;
constexpr std::size_t kMaxHeader = 1 << 20;  // NumPy writes a few hundred bytes; more is a corrupt length

struct Header {
  DType type = DType::F32;
  std::vector<std::int64_t> shape;
  std::size_t data_offset = 0;
};

[[noreturn]] void corrupt(const std::string& what, const std::string& why) {
  throw_io(fmt::format("{} is not a .npy file kernelscope can read: {}", what, why),
           "write it with numpy.save from a C-ordered 1-D or 2-D array of float32, float64, uint32, int32 or uint64");
}

std::string descr_of(DType t) {
  switch (t) {
    case DType::F32:
      return "<f4";
    case DType::F64:
      return "<f8";
    case DType::U32:
      return "<u4";
    case DType::I32:
      return "<i4";
    case DType::U64:
      return "<u8";
  }
  return "";
}

// The header dictionary: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class DictParser {
 public:
  DictParser(std::string text, const std::string& what) : s_(std::move(text)), what_(what) {}

  Header parse() {
    std::optional<std::string> descr;
    std::optional<bool> fortran;
    std::optional<std::vector<std::int64_t>> shape;
    expect('{');
    while (!peek('}')) {
      const std::string key = string_value();
      expect(':');
      if (key == "descr") descr = string_value();
      else if (key == "fortran_order") fortran = bool_value();
      else if (key == "shape") shape = tuple_value();
      else fail("unknown key '" + key + "' in the header");
      if (!peek('}')) expect(',');
    }
    expect('}');
    skip_space();
    if (pos_ != s_.size()) fail("text after the header's dictionary");
    if (!descr || !fortran || !shape) fail("the header lacks descr, fortran_order or shape");
    Header h;
    bool known = false;
    for (DType t : {DType::F32, DType::F64, DType::U32, DType::I32, DType::U64})
      if (*descr == descr_of(t) || (descr->size() == 3 && (*descr)[0] == '=' && descr->substr(1) == descr_of(t).substr(1))) {
        h.type = t;
        known = true;
      }
    if (!known)
      fail(fmt::format("element type '{}' ({})", *descr,
                       !descr->empty() && (*descr)[0] == '>' ? "big-endian" : "not f32, f64, u32, i32 or u64"));
    if (shape->empty() || shape->size() > 2)
      fail(fmt::format("{} dimensions (1-D and 2-D arrays only)", shape->size()));
    if (*fortran && shape->size() == 2 && (*shape)[0] > 1 && (*shape)[1] > 1)
      fail("Fortran (column-major) order; save numpy.ascontiguousarray(a)");
    h.shape = *shape;
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& why) { corrupt(what_, why); }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t')) ++pos_;
  }
  bool peek(char c) {
    skip_space();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  void expect(char c) {
    if (!peek(c)) fail(fmt::format("the header does not parse (expected '{}' at character {})", c, pos_));
    ++pos_;
  }
  std::string string_value() {
    skip_space();
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) fail("the header does not parse (a string expected)");
    const char q = s_[pos_++];
    const auto end = s_.find(q, pos_);
    if (end == std::string::npos) fail("the header does not parse (an unterminated string)");
    std::string v = s_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return v;
  }
  bool bool_value() {
    skip_space();
    for (auto [word, value] : {std::pair{"True", true}, std::pair{"False", false}})
      if (s_.compare(pos_, std::strlen(word), word) == 0) {
        pos_ += std::strlen(word);
        return value;
      }
    fail("the header does not parse (fortran_order is not True or False)");
  }
  std::vector<std::int64_t> tuple_value() {
    std::vector<std::int64_t> v;
    expect('(');
    while (!peek(')')) {
      skip_space();
      std::int64_t d = 0;
      std::size_t digits = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        if (++digits > 15) fail("a dimension of the shape is too large");
        d = d * 10 + (s_[pos_++] - '0');
      }
      if (!digits) fail("the header does not parse (the shape holds something other than numbers)");
      v.push_back(d);
      if (!peek(')')) expect(',');
    }
    expect(')');
    return v;
  }

  std::string s_;
  const std::string& what_;
  std::size_t pos_ = 0;
};

// Magic, version and the header; `bytes` may be just the file's beginning (at least what the header needs).
Header parse_header(std::span<const std::byte> bytes, const std::string& what, std::size_t* needed) {
  auto u8 = [&](std::size_t i) { return std::uint8_t(bytes[i]); };
  if (bytes.size() < 10) {
    if (needed) {
      *needed = 10;
      return {};
    }
    corrupt(what, fmt::format("{} bytes, shorter than the smallest header", bytes.size()));
  }
  if (std::memcmp(bytes.data(), kMagic, kMagicSize) != 0) corrupt(what, "it does not start with \\x93NUMPY");
  const int major = u8(6), minor = u8(7);
  if ((major != 1 && major != 2) || minor != 0)
    corrupt(what, fmt::format("format version {}.{} (1.0 and 2.0 only)", major, minor));
  const std::size_t len_size = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + len_size) {
    if (!needed) corrupt(what, "truncated in the header length");
    *needed = 8 + len_size;
    return {};
  }
  std::size_t len = 0;
  for (std::size_t i = 0; i < len_size; ++i) len |= std::size_t(u8(8 + i)) << (8 * i);
  if (len > kMaxHeader) corrupt(what, fmt::format("a header length of {} bytes", len));
  const std::size_t offset = 8 + len_size + len;
  if (bytes.size() < offset) {
    if (needed) {
      *needed = offset;
      return {};
    }
    corrupt(what, fmt::format("truncated in the header ({} of {} bytes)", bytes.size(), offset));
  }
  const std::string text(reinterpret_cast<const char*>(bytes.data()) + 8 + len_size, len);
  Header h = DictParser(text, what).parse();
  h.data_offset = offset;
  if (needed) *needed = 0;
  return h;
}

std::size_t data_bytes(const Header& h, const std::string& what) {
  std::size_t count = 1;
  for (auto d : h.shape) {
    if (d != 0 && count > (std::size_t(1) << 48) / std::size_t(d)) corrupt(what, "a shape of more than 2^48 elements");
    count *= std::size_t(d);
  }
  return count * dtype_size(h.type);
}

// The data after the header is shorter than the shape declares.
[[noreturn]] void refuse_short_data(const Header& h, const std::string& what, std::size_t have, std::size_t want) {
  const std::size_t element = dtype_size(h.type);
  corrupt(what, fmt::format("the header declares {} {} values (shape ({}), {} bytes), the file holds {} ({} bytes "
                            "of data; truncated, or a corrupt header)",
                            want / element, to_string(h.type), fmt::join(h.shape, ", "), want, have / element,
                            have));
}

NdArray to_array(Header h) {
  NdArray a;
  a.type = h.type;
  a.shape = std::move(h.shape);
  return a;
}

}  // namespace

NdArray parse_npy(std::span<const std::byte> bytes, const std::string& what) {
  const Header h = parse_header(bytes, what, nullptr);
  const std::size_t want = data_bytes(h, what), have = bytes.size() - h.data_offset;
  if (have != want)
    corrupt(what, fmt::format("{} bytes of data where the shape {} of {} needs {}{}", have,
                              fmt::format("({})", fmt::join(h.shape, ", ")), to_string(h.type), want,
                              have < want ? " (truncated)" : " (trailing bytes)"));
  NdArray a = to_array(h);
  a.data.assign(bytes.begin() + std::ptrdiff_t(h.data_offset), bytes.end());
  return a;
}

NdArray read_npy(const std::filesystem::path& path) {
  const std::string what = path.string();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(what.c_str(), "rb"), &std::fclose);
  if (!f) throw_io(fmt::format("cannot read {}: {}", what, std::strerror(errno)), "check the path");
  // The header first (it says how much follows), then the data straight into the array.
  std::vector<std::byte> head;
  std::size_t needed = 10;
  Header h;
  while (needed) {
    const std::size_t before = head.size();
    head.resize(needed);
    const std::size_t got = std::fread(head.data() + before, 1, needed - before, f.get());
    if (got < needed - before) {
      head.resize(before + got);
      h = parse_header(head, what, nullptr);  // reports the truncation
      break;
    }
    h = parse_header(head, what, &needed);
  }
  const std::size_t want = data_bytes(h, what);
  // A header may claim far more than its file holds (a shape of 2^40 in a 128-byte file): compare the two
  // before the array is allocated, so that a corrupt header costs nothing.
  std::error_code size_error;
  const std::uintmax_t file_size = std::filesystem::file_size(path, size_error);
  if (!size_error && file_size >= h.data_offset && file_size - h.data_offset < want)
    refuse_short_data(h, what, std::size_t(file_size - h.data_offset), want);
  NdArray a = to_array(h);
  a.data.resize(want);
  const std::size_t got = want ? std::fread(a.data.data(), 1, want, f.get()) : 0;
  if (got < want) refuse_short_data(h, what, got, want);  // a file that shrank while read, or not a regular one
  char extra;
  if (std::fread(&extra, 1, 1, f.get()) == 1) corrupt(what, "more data than the shape says (trailing bytes)");
  return a;
}

std::string npy_header(const NdArray& a) {
  const std::string shape = a.shape.size() == 1 ? fmt::format("({},)", a.shape[0])
                                                : fmt::format("({}, {})", a.shape[0], a.shape[1]);
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr_of(a.type), shape);
  // Padded with spaces and a final newline so that the data starts at a multiple of 64 bytes.
  const bool v2 = dict.size() + 1 + 10 > 65535;
  const std::size_t prefix = v2 ? 12 : 10;
  const std::size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicSize);
  out += char(v2 ? 2 : 1);
  out += char(0);
  const std::size_t len = dict.size();
  for (std::size_t i = 0; i < (v2 ? 4u : 2u); ++i) out += char((len >> (8 * i)) & 0xff);
  return out + dict;
}

void write_npy(const std::filesystem::path& path, const NdArray& a) {
  if (a.shape.empty() || a.shape.size() > 2)
    throw Error(ErrorKind::Internal, fmt::format("write_npy: {} dimensions", a.shape.size()));
  if (a.data.size() != std::size_t(a.count()) * dtype_size(a.type))
    throw Error(ErrorKind::Internal, "write_npy: the data does not match the shape");
  const std::string header = npy_header(a);
  write_file_atomically(path, [&](std::FILE* f) {
    std::fwrite(header.data(), 1, header.size(), f);
    if (!a.data.empty()) std::fwrite(a.data.data(), 1, a.data.size(), f);
  });
}

}  // namespace ks
