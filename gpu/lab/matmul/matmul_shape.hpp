#pragma once
// The shape of a matrix product C = A * B (row-major f32): A is m x k, B is k x n, C is m x n.
#include <cstdint>
#include <string>

namespace ks::lab {

// Each of m, n and k is at most this: 8192^3 is 1.1 TFLOP, three 256 MB matrices.
inline constexpr long long kMaxMatmulSide = 8192;

struct MatmulShape {
  long long m = 1, n = 1, k = 1;
  bool operator==(const MatmulShape&) const = default;
};

// "MxNxK" (e.g. 4096x4096x4096) or a single "N" for a cube; a usage Error for anything else or a side out of
// range.
MatmulShape parse_matmul_shape(const std::string& text);
// A usage Error naming the side out of 1..8192.
void check_matmul_shape(const MatmulShape& s);
std::string to_string(const MatmulShape& s);  // "MxNxK"

double matmul_flops(const MatmulShape& s);         // 2 m n k: a multiply and an add per term
std::uint64_t matmul_bytes(const MatmulShape& s);  // A and B read once, C written once: 4 (mk + kn + mn)

}  // namespace ks::lab
