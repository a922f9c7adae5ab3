#pragma once
// The inner loop of the CPU's FMA peak (cpu_peaks.cpp): independent multiply-add chains in SIMD, compiled by
// Google Highway for every instruction set it targets and dispatched at run time to the best one the CPU runs,
// the same choice the CPU stencils' loops get (stencil/cpu/simd/simd_target.hpp), so the roofline's ceiling is
// measured with the instructions the kernels under it use.
namespace ks {

struct CpuFmaLoop {
  // Runs `iterations` rounds of the chains from `seed` and returns their sum (keep it: it is what makes the
  // work observable).
  float (*run)(long long iterations, float seed);
  long long fmas_per_iteration;  // f32 multiply-adds per round, over all lanes and chains
};

CpuFmaLoop cpu_fma_loop();

}  // namespace ks
