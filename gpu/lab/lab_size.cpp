#include "lab/lab_size.hpp"

#include <fmt/format.h>

#include <bit>
#include <optional>
#include <vector>

#include "core/error.hpp"

namespace ks::lab {

namespace {

constexpr std::int64_t kMaxCount = std::int64_t(1) << 62;

std::string size_syntax(SizeForm form) {
  switch (form) {
    case SizeForm::Elements:
      return "an element count: 1048576, 2^20, 1M (= 2^20) or 2^20+3";
    case SizeForm::Grid:
      return "NxM, e.g. 1024x768 or 2^10x2^10";
    case SizeForm::Matmul:
      return "MxNxK, e.g. 512x512x512 or 7x13x5";
    case SizeForm::Image:
      return "no --size: the size is the loaded image's (-i IMAGE)";
  }
  return "";
}

// Unsigned decimal digits only; nullopt when empty, not digits or too large.
std::optional<std::int64_t> parse_digits(const std::string& s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  std::int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// "1048576", "2^20", "1M" (no offset).
std::optional<std::int64_t> parse_term(const std::string& s) {
  if (const auto caret = s.find('^'); caret != std::string::npos) {
    const auto base = parse_digits(s.substr(0, caret));
    const auto exp = parse_digits(s.substr(caret + 1));
    if (!base || !exp || *base < 1) return std::nullopt;
    std::int64_t v = 1;
    for (std::int64_t i = 0; i < *exp; ++i) {
      if (v > kMaxCount / *base) return std::nullopt;
      v *= *base;
    }
    return v;
  }
  if (!s.empty()) {
    int shift = 0;
    switch (s.back()) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
      case 'm':
        shift = 20;
        break;
      case 'G':
      case 'g':
        shift = 30;
        break;
      default:
        break;
    }
    if (shift) {
      const auto v = parse_digits(s.substr(0, s.size() - 1));
      if (!v || *v > (kMaxCount >> shift)) return std::nullopt;
      return *v << shift;
    }
  }
  return parse_digits(s);
}

}  // namespace

const char* to_string(SizeForm form) noexcept {
  switch (form) {
    case SizeForm::Elements:
      return "n";
    case SizeForm::Grid:
      return "NxM";
    case SizeForm::Matmul:
      return "MxNxK";
    case SizeForm::Image:
      return "image";
  }
  return "?";
}

int LabSize::rank() const noexcept {
  switch (form) {
    case SizeForm::Elements:
      return 1;
    case SizeForm::Matmul:
      return 3;
    case SizeForm::Grid:
    case SizeForm::Image:
      return 2;
  }
  return 1;
}

std::int64_t LabSize::elements() const noexcept {
  std::int64_t p = 1;
  for (int i = 0; i < rank(); ++i) p *= dims[std::size_t(i)];
  return p;
}

std::string to_string(const LabSize& size) {
  std::string s = std::to_string(size.dims[0]);
  for (int i = 1; i < size.rank(); ++i) {
    s += 'x';  // (one append at a time: GCC 12 warns falsely about "x" + std::to_string(...))
    s += std::to_string(size.dims[std::size_t(i)]);
  }
  return s;
}

std::string short_text(std::int64_t n) {
  if (n >= 1024 && std::has_single_bit(std::uint64_t(n))) return fmt::format("2^{}", std::countr_zero(std::uint64_t(n)));
  return std::to_string(n);
}

std::int64_t parse_count(const std::string& text) {
  // The offset sign is searched after the first character so that "-5" is not read as "" minus 5.
  const auto sign = text.find_first_of("+-", 1);
  const auto term = parse_term(text.substr(0, sign));
  std::optional<std::int64_t> offset = 0;
  if (sign != std::string::npos) offset = parse_digits(text.substr(sign + 1));
  if (!term || !offset || text.empty())
    throw_usage(fmt::format("'{}' is not a count", text), "write e.g. 1048576, 2^20, 1M (= 2^20) or 2^20+3");
  const std::int64_t v = sign != std::string::npos && text[sign] == '-' ? *term - *offset : *term + *offset;
  if (v < 1 || v > kMaxCount)
    throw_usage(fmt::format("'{}' is {}: a count must be at least 1", text, v), "write e.g. 2^20");
  return v;
}

LabSize parse_lab_size(const std::string& text, SizeForm form, const std::string& kernel) {
  if (form == SizeForm::Image)
    throw_usage(fmt::format("{} takes no --size: it works on the loaded image", kernel), "give -i IMAGE instead");
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto x = text.find_first_of("xX", start);
    parts.push_back(text.substr(start, x - start));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  LabSize size;
  size.form = form;
  if (int(parts.size()) != size.rank())
    throw_usage(fmt::format("--size '{}' does not fit {}: it takes {}", text, kernel, size_syntax(form)),
                fmt::format("write --size {}", form == SizeForm::Elements ? "2^20"
                                                : form == SizeForm::Grid   ? "1024x1024"
                                                                           : "512x512x512"));
  for (std::size_t i = 0; i < parts.size(); ++i) size.dims[i] = parse_count(parts[i]);
  return size;
}

void check_size(const LabSize& size, SizeForm form, const SizeLimits& limits, const std::string& kernel) {
  if (size.form != form)
    throw_usage(fmt::format("{} takes a size of the form {}, not {}", kernel, to_string(form), to_string(size.form)),
                size_syntax(form));
  static constexpr const char* kNames[3][3] = {{"n", "", ""}, {"N", "M", ""}, {"M", "N", "K"}};
  const int row = form == SizeForm::Elements ? 0 : form == SizeForm::Matmul ? 2 : 1;
  for (int i = 0; i < size.rank(); ++i) {
    const auto d = std::size_t(i);
    const char* name = form == SizeForm::Image ? (i == 0 ? "width" : "height") : kNames[row][i];
    if (size.dims[d] < limits.min[d] || size.dims[d] > limits.max[d])
      throw_usage(fmt::format("{} = {} is out of range for {}", name, size.dims[d], kernel),
                  fmt::format("{} takes {} from {} to {} ({})", kernel, name, short_text(limits.min[d]),
                              short_text(limits.max[d]), limits.max[d]));
  }
  if (limits.max_elements > 0 && size.elements() > limits.max_elements)
    throw_usage(fmt::format("{} {} has {} elements, more than {} takes", kernel, to_string(size), size.elements(), kernel),
                fmt::format("at most {} ({})", short_text(limits.max_elements), limits.max_elements));
}

}  // namespace ks::lab
