// Compiled like gpu/sim's code (against ks_sim's include roots): its own headers, the registry's and core's are
// there. The control of sim_stencil_include.cpp: this one builds.
#include "core/rounded_math.hpp"
#include "registry/registry.hpp"
#include "sim/sim_math.hpp"

float seam_probe_allowed(float a, float b) { return ks::add_rn(a, ks::sim::neighbour_sum(a, b, a, b)); }
