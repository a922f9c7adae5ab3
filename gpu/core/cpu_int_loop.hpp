#pragma once
// The inner loops of the CPU's integer ceilings (cpu_peaks.cpp): independent chains x = min(x + step, limit)
// in SIMD on 8-, 16- and 32-bit lanes, compiled and dispatched by Google Highway like the FMA loop
// (cpu_fma_loop.hpp), so each integer ceiling is measured at the native vector width the kernels under it use
// (64 u8 lanes to a 512-bit vector). An add and a min/max count 1 operation each: the kinds the cost models
// count as integer (core/op_mix.hpp), the median's compare-exchanges among them.
#include <cstdint>

#include "core/op_mix.hpp"

namespace ks {

// Independent chains per loop: as the FMA loop, enough to keep every vector port busy.
inline constexpr int kCpuIntChains = 12;

struct CpuIntLoop {
  // Runs `iterations` rounds of the chains (step and limit derived from `seed`, unknown to the compiler) and
  // returns a digest of the chains' final lanes (keep it: it is what makes the work observable).
  std::uint64_t (*run)(long long iterations, unsigned seed);
  long long operations_per_iteration;  // adds + mins per round, over all lanes and chains
};

// kind: OpKind::U8, I16 or I32; anything else is a logic error.
CpuIntLoop cpu_int_loop(OpKind kind);

}  // namespace ks
