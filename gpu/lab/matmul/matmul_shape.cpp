#include "lab/matmul/matmul_shape.hpp"

#include <fmt/format.h>

#include <charconv>
#include <vector>

#include "core/error.hpp"

namespace ks::lab {

namespace {

long long parse_side(const std::string& text, const std::string& whole) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw_usage(fmt::format("matmul size '{}' is not MxNxK", whole),
                "e.g. --size 4096x4096x4096 or --size 1024");
  return v;
}

}  // namespace

MatmulShape parse_matmul_shape(const std::string& text) {
  std::vector<std::string> parts{""};
  for (char c : text) {
    if (c == 'x' || c == 'X')
      parts.emplace_back();
    else
      parts.back() += c;
  }
  MatmulShape s;
  if (parts.size() == 1) {
    s.m = s.n = s.k = parse_side(parts[0], text);
  } else if (parts.size() == 3) {
    s.m = parse_side(parts[0], text);
    s.n = parse_side(parts[1], text);
    s.k = parse_side(parts[2], text);
  } else {
    throw_usage(fmt::format("matmul size '{}' is not MxNxK", text),
                "e.g. --size 4096x4096x4096 or --size 1024");
  }
  check_matmul_shape(s);
  return s;
}

void check_matmul_shape(const MatmulShape& s) {
  const std::pair<const char*, long long> sides[] = {{"M", s.m}, {"N", s.n}, {"K", s.k}};
  for (const auto& [name, v] : sides)
    if (v < 1 || v > kMaxMatmulSide)
      throw_usage(fmt::format("matmul {} = {} is out of range", name, v),
                  fmt::format("each of M, N and K is 1 to {}", kMaxMatmulSide));
}

std::string to_string(const MatmulShape& s) {
  return fmt::format("{}x{}x{}", s.m, s.n, s.k);
}

double matmul_flops(const MatmulShape& s) {
  return 2.0 * double(s.m) * double(s.n) * double(s.k);
}

std::uint64_t matmul_bytes(const MatmulShape& s) {
  return 4ull * std::uint64_t(s.m * s.k + s.k * s.n + s.m * s.n);
}

}  // namespace ks::lab
