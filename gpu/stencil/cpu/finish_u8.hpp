#pragma once
// Row versions of the U8 finishing steps of stencil_math.hpp (magnitude_u8, unsharp_u8) that give the same
// bytes and that g++ vectorizes (defined out of line so that their restrict-qualified parameters are what the
// vectorizer sees).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ks::cpu {

// out[i] = magnitude_u8(a[i], b[i]), through a table of magnitude_u8's own values: the result depends only on
// n = a^2 + b^2, and every n >= 255.5^2 saturates, so 65281 entries cover all of it (sqrt would not
// vectorize: its errno path is a branch).
class MagnitudeU8 {
 public:
  MagnitudeU8();
  void apply(const std::int32_t* __restrict a, const std::int32_t* __restrict b, std::uint8_t* __restrict out,
             std::size_t n) const;

 private:
  std::vector<std::uint8_t> table_;  // table_[n] = magnitude for a^2 + b^2 = n; the last entry is 255
};

// out[i] = unsharp_u8(src[i], blur_sum[i], divisor, amount); `amount` must be finite.
void unsharp_u8_row(const std::uint8_t* __restrict src, const std::int32_t* __restrict blur_sum,
                    std::uint8_t* __restrict out, std::size_t n, std::int32_t divisor, float amount);

}  // namespace ks::cpu
