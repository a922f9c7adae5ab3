#include "core/launch_shape.hpp"

#include <cerrno>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks {

namespace {

// A positive decimal of at most 9 digits (so it cannot overflow int); -1 otherwise.
int parse_dimension(const std::string& s) {
  if (s.empty() || s.size() > 9) return -1;
  for (char c : s)
    if (c < '0' || c > '9') return -1;
  return std::atoi(s.c_str());
}

}  // namespace

BlockShape parse_block_shape(const std::string& text) {
  const auto x = text.find_first_of("xX");
  const int w = x == std::string::npos ? -1 : parse_dimension(text.substr(0, x));
  const int h = x == std::string::npos ? -1 : parse_dimension(text.substr(x + 1));
  if (w < 0 || h < 0)
    throw_usage(fmt::format("block '{}' is not WIDTHxHEIGHT", text), "write e.g. --block 32x8");
  if (w == 0 || h == 0)
    throw_usage(fmt::format("block {}x{} has no threads", w, h), "both sides must be at least 1, e.g. 32x8");
  return BlockShape{w, h};
}

std::string to_string(const BlockShape& b) { return fmt::format("{}x{}", b.x, b.y); }

}  // namespace ks
