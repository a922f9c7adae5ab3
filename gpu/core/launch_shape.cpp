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
  // Spaces around the numbers are a typo worth reporting, not something to guess about: no trimming.
  const auto x = text.find_first_of("xX");
  const int w = x == std::string::npos ? -1 : parse_dimension(text.substr(0, x));
  const int h = x == std::string::npos ? -1 : parse_dimension(text.substr(x + 1));
  if (w < 0 || h < 0)
    throw_usage(fmt::format("block '{}' is not WIDTHxHEIGHT", text), "write e.g. --block 32x8");
  if (w == 0 || h == 0)
    throw_usage(fmt::format("block {}x{} has no threads", w, h), "both sides must be at least 1, e.g. 32x8");
  // Far beyond any GPU (1024 threads per block), and it keeps threads() from overflowing an int.
  if (static_cast<long long>(w) * h > 1'000'000)
    throw_usage(fmt::format("block {}x{} is far too large", w, h), "GPUs run at most 1024 threads per block, e.g. 32x8");
  return BlockShape{w, h};
}

std::string to_string(const BlockShape& b) { return fmt::format("{}x{}", b.x, b.y); }

BlockShape parse_block_or_threads(const std::string& text) {
  if (text.find_first_of("xX") != std::string::npos) return parse_block_shape(text);
  if (parse_dimension(text) < 0)
    throw_usage(fmt::format("block '{}' is neither a thread count nor WIDTHxHEIGHT", text),
                "write e.g. --block 256 (1-D kernels) or --block 16x16");
  return parse_block_shape(text + "x1");
}

}  // namespace ks
