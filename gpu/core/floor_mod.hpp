#pragma once
// Index arithmetic that wraps around: the stencils' border modes (stencil/border.hpp) and the simulations'
// periodic boundaries (sim/sim_math.hpp) read the same cells on the CPU and the GPU through it.
#include "core/hd.hpp"

namespace ks {

// a mod n in [0, n) for n > 0, also for negative a (C++'s % keeps the sign of a).
KS_HD int floor_mod(int a, int n) {
  int m = a % n;
  return m < 0 ? m + n : m;
}

}  // namespace ks
