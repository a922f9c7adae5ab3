#pragma once
// How costs are added up, shared by the CPU backend and the CUDA kernels. A policy fixes the value type and the
// exact operations, so that the backends agree to the last bit:
//   ExactInt64   scaled integers (traffic and path costs as written, times 10^decimals) in 64-bit integers
//   ExactDouble  the same integers in double, used by CUDA when every partial sum stays below 2^53 (checked on
//                the host from the largest possible cost): every operation is then exact, so the result equals
//                ExactInt64's and the GPU can use its double-precision FMA units
//   ExactFloat   the same integers in float, used by CUDA when every partial sum stays below 2^24: exact for the
//                same reason, with half the registers of double and the single-precision FMA units (most QAPLIB
//                instances up to n = 20 qualify: nug, chr, had, esc, rou, scr12/15, tai*a)
//   RealDouble   values that cannot be held exactly: double, each product and sum rounded separately in a fixed
//                order (no fused multiply-add on either side), so CPU and CUDA still agree bit for bit
#include <cstdint>

#include "core/hd.hpp"

namespace ks::topo {

// A signed 128-bit sum of 64-bit integers: the total of up to 2^64 costs, exactly.
struct Sum128 {
  std::uint64_t lo = 0;
  std::int64_t hi = 0;

  KS_HD void add(std::int64_t v) {
    const std::uint64_t before = lo;
    lo += std::uint64_t(v);
    hi += (v < 0 ? -1 : 0) + (lo < before ? 1 : 0);
  }
  KS_HD void add(const Sum128& o) {
    const std::uint64_t before = lo;
    lo += o.lo;
    hi += o.hi + (lo < before ? 1 : 0);
  }
  // Nearest long double (64-bit mantissa on x86), for means.
  long double value() const { return (long double)hi * 18446744073709551616.0L + (long double)lo; }
};

struct ExactInt64 {
  using Value = std::int64_t;
  using Sum = Sum128;
  static constexpr bool exact = true;
  KS_HD static Value mad(Value acc, Value a, Value b) { return acc + a * b; }
  KS_HD static Value sub(Value a, Value b) { return a - b; }
  KS_HD static Value add(Value a, Value b) { return a + b; }
  KS_HD static void accumulate(Sum& s, Value v) { s.add(v); }
  KS_HD static std::int64_t to_int(Value v) { return v; }
  KS_HD static Value larger(Value a, Value b) { return b > a ? b : a; }
};

// ExactDouble and ExactFloat: the integers in a floating type F, each operation exact while the values stay
// below F's integer limit (the backend checks the bound before choosing one).
template <class F>
struct ExactFloating {
  using Value = F;
  using Sum = Sum128;
  static constexpr bool exact = true;
#if defined(__CUDA_ARCH__)
  __device__ __forceinline__ static Value mad(Value acc, Value a, Value b) {
    if constexpr (sizeof(F) == sizeof(float))
      return __fmaf_rn(a, b, acc);
    else
      return __fma_rn(a, b, acc);
  }
#else
  static Value mad(Value acc, Value a, Value b) { return acc + a * b; }  // exact integers: no rounding anywhere
#endif
  KS_HD static Value sub(Value a, Value b) { return a - b; }
  KS_HD static Value add(Value a, Value b) { return a + b; }
  KS_HD static void accumulate(Sum& s, Value v) { s.add(std::int64_t(v)); }
  KS_HD static std::int64_t to_int(Value v) { return std::int64_t(v); }
  // The larger of two costs (one FMNMX on the GPU); which zero of equal zeros is no matter, since exact
  // results leave as integers (to_int).
#if defined(__CUDA_ARCH__)
  __device__ __forceinline__ static Value larger(Value a, Value b) {
    if constexpr (sizeof(F) == sizeof(float))
      return fmaxf(a, b);
    else
      return fmax(a, b);
  }
#else
  static Value larger(Value a, Value b) { return b > a ? b : a; }
#endif
};
using ExactDouble = ExactFloating<double>;
using ExactFloat = ExactFloating<float>;

struct RealDouble {
  using Value = double;
  using Sum = double;
  static constexpr bool exact = false;
#if defined(__CUDA_ARCH__)
  // Separately rounded: nvcc would otherwise contract a*b+c into an FMA that the host does not do.
  __device__ __forceinline__ static Value mad(Value acc, Value a, Value b) { return __dadd_rn(acc, __dmul_rn(a, b)); }
  __device__ __forceinline__ static Value sub(Value a, Value b) { return __dsub_rn(a, b); }
  __device__ __forceinline__ static Value add(Value a, Value b) { return __dadd_rn(a, b); }
  __device__ __forceinline__ static void accumulate(Sum& s, Value v) { s = __dadd_rn(s, v); }
#else
  // The host is built with -ffp-contract=off (see the top-level CMakeLists.txt).
  static Value mad(Value acc, Value a, Value b) { return acc + a * b; }
  static Value sub(Value a, Value b) { return a - b; }
  static Value add(Value a, Value b) { return a + b; }
  static void accumulate(Sum& s, Value v) { s += v; }
#endif
  KS_HD static std::int64_t to_int(Value v) { return std::int64_t(v); }
  KS_HD static Value larger(Value a, Value b) { return b > a ? b : a; }  // the first of equals: its zero's sign
};

}  // namespace ks::topo
