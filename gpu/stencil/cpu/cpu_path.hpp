#pragma once
// The two implementations of the CPU stencils. Both run the same plans through the same drivers (threads,
// padded rows, rings of horizontal passes); they differ in the loops over a row.
namespace ks::cpu {

enum class CpuPath {
  // The backend's: SIMD loops through Google Highway on the best instruction set of this CPU (simd/). U8
  // gives
  // the reference's bytes; F32 sums in float, within the f32 tolerance of the reference.
  Simd,
  // The scalar reference the SIMD path is tested against: plain C++ loops (row_ops.hpp, which g++ vectorizes
  // for baseline x86-64 by itself), F32 sums in double.
  Reference,
};

}  // namespace ks::cpu
