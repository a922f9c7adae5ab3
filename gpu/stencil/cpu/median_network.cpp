#include "stencil/cpu/median_network.hpp"

#include "stencil/cpu/row_ops.hpp"

namespace ks::cpu {

// These are what pminub / minps compute, so g++ vectorizes them without -ffast-math (written with one shared
// condition instead, g++ keeps a branch; through std::min's references, -O2 keeps one for u8). For equal
// values both outputs take `a`: only the sign of a zero can change, never a value.
template <class T>
inline T min_of(T a, T b) {
  return b < a ? b : a;
}
template <class T>
inline T max_of(T a, T b) {
  return a < b ? b : a;
}

template <class T>
static void compare_exchange_impl(T* __restrict lo, T* __restrict hi, std::size_t n) {
  for_lanes(n, [&](std::size_t i) {
    const T a = lo[i], b = hi[i];
    lo[i] = min_of(a, b);
    hi[i] = max_of(a, b);
  });
}

void compare_exchange(std::uint8_t* __restrict lo, std::uint8_t* __restrict hi, std::size_t n) {
  compare_exchange_impl(lo, hi, n);
}

void compare_exchange(float* __restrict lo, float* __restrict hi, std::size_t n) {
  compare_exchange_impl(lo, hi, n);
}

}  // namespace ks::cpu
