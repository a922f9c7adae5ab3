#pragma once
// A CUDA block shape as the user gives it ("16x16", "32x8"). Parsing checks the syntax only; whether a device
// can run it is the launch validator's business (it knows the device and the kernel).
#include <string>

namespace ks {

struct BlockShape {
  int x = 32;
  int y = 8;
  int threads() const noexcept { return x * y; }
  bool operator==(const BlockShape&) const = default;
};

BlockShape parse_block_shape(const std::string& text);  // "WxH"; usage Error otherwise (0 threads included)
std::string to_string(const BlockShape& b);             // "WxH"
// "WxH", or a thread count alone ("256" = 256x1) for kernels with 1-D blocks (the lab's).
BlockShape parse_block_or_threads(const std::string& text);

}  // namespace ks
