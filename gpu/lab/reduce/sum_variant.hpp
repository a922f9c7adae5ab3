#pragma once
// The ways the lab's sums (reduce, integrate2d) add up their values, and in which type. Plain enums shared by
// the CPU references, the CUDA launchers (declared without CUDA headers) and the registry specs.
#include <string>

namespace ks::lab {

// The type partial sums are carried in. The values themselves are f32 either way.
enum class Accumulate { F32, F64 };

// The CUDA variants of a sum, in the order a course teaches them.
enum class SumVariant {
  Atomic,  // every thread adds each of its values to one global value (atomicAdd): contention, the baseline
  Shared,  // a shared-memory tree per block, one partial per block, a second pass over the partials
  Warp,  // several values per thread (16-byte loads), warp shuffles, one atomic per block, grid sized to the
         // device
  Cub,   // cub::DeviceReduce from the CUDA toolkit: what a professional would call
};

const char* to_string(Accumulate a) noexcept;              // "f32" | "f64"
const char* to_string(SumVariant v) noexcept;              // "atomic" | "shared" | "warp" | "cub"
Accumulate accumulate_from_string(const std::string& s);   // usage Error for anything else
SumVariant sum_variant_from_string(const std::string& s);  // usage Error for anything else

// Unit roundoff of the accumulation type: 2^-24 (f32) or 2^-53 (f64).
double unit_roundoff(Accumulate a) noexcept;

// A bound on the rounding error of any summation order of n values (sequential, tree, atomics in any order):
// gamma_{n-1} * sum|x| with gamma_k = k u / (1 - k u) (Higham, Accuracy and Stability, (4.4)); the values are
// exact f32 inputs. Infinity where it would bound nothing: gamma_{n-1} >= 1, i.e. (n - 1) u >= 1/2 (more than
// 2^23 values in f32), where it allows an error as large as sum|x|, more than the sum itself (at 2^24 values it
// is (2^24 - 1) sum|x|).
double sum_error_bound(Accumulate a, long long n, double sum_abs) noexcept;

}  // namespace ks::lab
