// Compiled like gpu/sim's code (against ks_sim's include roots): a stencil header is not on its path, so this
// include must fail to build. (What sim shares with stencil lives in gpu/core.)
#include "stencil/border.hpp"

int seam_probe_sideways(int a, int n) { return ks::remap(a, n, ks::Border::Reflect101); }
