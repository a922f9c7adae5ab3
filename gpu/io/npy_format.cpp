#include "io/npy_format.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <cstdio>
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

// The header dictionary: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class DictParser {
 public:
  DictParser(std::string text, const std::string& what, const std::string& allowed)
      : s_(std::move(text)), what_(what), allowed_(allowed) {}

  NpyHeader parse() {
    std::optional<std::string> descr;
    std::optional<bool> fortran;
    std::optional<std::vector<std::int64_t>> shape;
    expect('{');
    while (!peek('}')) {
      const std::string key = string_value();
      expect(':');
      if (key == "descr")
        descr = string_value();
      else if (key == "fortran_order")
        fortran = bool_value();
      else if (key == "shape")
        shape = tuple_value();
      else
        fail("unknown key '" + key + "' in the header");
      if (!peek('}')) expect(',');
    }
    expect('}');
    skip_space();
    if (pos_ != s_.size()) fail("text after the header's dictionary");
    if (!descr || !fortran || !shape) fail("the header lacks descr, fortran_order or shape");
    NpyHeader h;
    h.descr = *descr;
    h.fortran_order = *fortran;
    h.shape = *shape;
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& why) { refuse_npy(what_, why, allowed_); }
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
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"'))
      fail("the header does not parse (a string expected)");
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
  const std::string& allowed_;
  std::size_t pos_ = 0;
};

// Magic, version and the header; `bytes` may be just the file's beginning (at least what the header needs).
NpyHeader parse_header(std::span<const std::byte> bytes, const std::string& what, const std::string& allowed,
                       std::size_t* needed) {
  auto u8 = [&](std::size_t i) { return std::uint8_t(bytes[i]); };
  auto corrupt = [&](const std::string& why) { refuse_npy(what, why, allowed); };
  if (bytes.size() < 10) {
    if (needed) {
      *needed = 10;
      return {};
    }
    corrupt(fmt::format("{} bytes, shorter than the smallest header", bytes.size()));
  }
  if (std::memcmp(bytes.data(), kMagic, kMagicSize) != 0) corrupt("it does not start with \\x93NUMPY");
  const int major = u8(6), minor = u8(7);
  if ((major != 1 && major != 2) || minor != 0)
    corrupt(fmt::format("format version {}.{} (1.0 and 2.0 only)", major, minor));
  const std::size_t len_size = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + len_size) {
    if (!needed) corrupt("truncated in the header length");
    *needed = 8 + len_size;
    return {};
  }
  std::size_t len = 0;
  for (std::size_t i = 0; i < len_size; ++i) len |= std::size_t(u8(8 + i)) << (8 * i);
  if (len > kMaxHeader) corrupt(fmt::format("a header length of {} bytes", len));
  const std::size_t offset = 8 + len_size + len;
  if (bytes.size() < offset) {
    if (needed) {
      *needed = offset;
      return {};
    }
    corrupt(fmt::format("truncated in the header ({} of {} bytes)", bytes.size(), offset));
  }
  const std::string text(reinterpret_cast<const char*>(bytes.data()) + 8 + len_size, len);
  NpyHeader h = DictParser(text, what, allowed).parse();
  h.data_offset = offset;
  if (needed) *needed = 0;
  return h;
}

std::size_t data_bytes(const NpyHeader& h, const NpyElement& e, const std::string& what,
                       const std::string& allowed) {
  std::size_t count = 1;
  for (auto d : h.shape) {
    if (d != 0 && count > (std::size_t(1) << 48) / std::size_t(d))
      refuse_npy(what, "a shape of more than 2^48 elements", allowed);
    count *= std::size_t(d);
  }
  return count * e.size;
}

// The data after the header is shorter than the shape declares.
[[noreturn]] void refuse_short_data(const NpyHeader& h, const NpyElement& e, const std::string& what,
                                    const std::string& allowed, std::size_t have, std::size_t want) {
  refuse_npy(
      what,
      fmt::format("the header declares {} {} values (shape ({}), {} bytes), the file holds {} ({} bytes "
                  "of data; truncated, or a corrupt header)",
                  want / e.size, e.name, fmt::join(h.shape, ", "), want, have / e.size, have),
      allowed);
}

}  // namespace

void refuse_npy(const std::string& what, const std::string& why, const std::string& allowed) {
  throw_io(fmt::format("{} is not a .npy file kernelscope can read: {}", what, why), allowed);
}

bool npy_descr_is(const std::string& descr, const std::string& little_endian) {
  return descr == little_endian || (descr.size() == little_endian.size() && descr[0] == '=' &&
                                    descr.compare(1, std::string::npos, little_endian, 1) == 0);
}

NpyContent parse_npy_content(std::span<const std::byte> bytes, const std::string& what, const NpyCheck& check,
                             const std::string& allowed) {
  NpyContent c;
  c.header = parse_header(bytes, what, allowed, nullptr);
  const NpyElement e = check(c.header);
  const std::size_t want = data_bytes(c.header, e, what, allowed), have = bytes.size() - c.header.data_offset;
  if (have != want)
    refuse_npy(what,
               fmt::format("{} bytes of data where the shape ({}) of {} needs {}{}", have,
                           fmt::join(c.header.shape, ", "), e.name, want,
                           have < want ? " (truncated)" : " (trailing bytes)"),
               allowed);
  c.data.assign(bytes.begin() + std::ptrdiff_t(c.header.data_offset), bytes.end());
  return c;
}

NpyContent read_npy_content(const std::filesystem::path& path, const NpyCheck& check,
                            const std::string& allowed) {
  const std::string what = path.string();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(what.c_str(), "rb"), &std::fclose);
  if (!f) throw_io(fmt::format("cannot read {}: {}", what, std::strerror(errno)), "check the path");
  // The header first (it says how much follows), then the data straight into the array.
  std::vector<std::byte> head;
  std::size_t needed = 10;
  NpyContent c;
  while (needed) {
    const std::size_t before = head.size();
    head.resize(needed);
    const std::size_t got = std::fread(head.data() + before, 1, needed - before, f.get());
    if (got < needed - before) {
      head.resize(before + got);
      c.header = parse_header(head, what, allowed, nullptr);  // reports the truncation
      break;
    }
    c.header = parse_header(head, what, allowed, &needed);
  }
  const NpyElement e = check(c.header);
  const std::size_t want = data_bytes(c.header, e, what, allowed);
  // A header may claim far more than its file holds (a shape of 2^40 in a 128-byte file): compare the two
  // before the array is allocated, so that a corrupt header costs nothing.
  std::error_code size_error;
  const std::uintmax_t file_size = std::filesystem::file_size(path, size_error);
  if (!size_error && file_size >= c.header.data_offset && file_size - c.header.data_offset < want)
    refuse_short_data(c.header, e, what, allowed, std::size_t(file_size - c.header.data_offset), want);
  c.data.resize(want);
  const std::size_t got = want ? std::fread(c.data.data(), 1, want, f.get()) : 0;
  if (got < want)
    refuse_short_data(c.header, e, what, allowed, got, want);  // shrank while read, or not a regular file
  char extra;
  if (std::fread(&extra, 1, 1, f.get()) == 1)
    refuse_npy(what, "more data than the shape says (trailing bytes)", allowed);
  return c;
}

std::string npy_header_text(const std::string& descr, const std::vector<std::int64_t>& shape) {
  const std::string dims =
      shape.size() == 1 ? fmt::format("({},)", shape[0]) : fmt::format("({})", fmt::join(shape, ", "));
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, dims);
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

void write_npy_content(const std::filesystem::path& path, const std::string& descr,
                       const std::vector<std::int64_t>& shape, std::span<const std::byte> data) {
  const std::string header = npy_header_text(descr, shape);
  write_file_atomically(path, [&](std::FILE* f) {
    std::fwrite(header.data(), 1, header.size(), f);
    if (!data.empty()) std::fwrite(data.data(), 1, data.size(), f);
  });
}

}  // namespace ks
