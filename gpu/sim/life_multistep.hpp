#pragma once
// The multistep Life variant (sim/cuda/life_multistep.cu) as the host sees it: the generations one pass may
// run. No CUDA, so the CPU tests check it.

namespace ks::sim {

// Rows of the grid each warp of the multistep kernel writes per pass (its column holds 2 K more).
inline constexpr int kMultistepTileRows = 64;

// The generations per pass the kernel is compiled for: 1, 2, 4, 8 (the steps_per_pass parameter). Past 8 the
// pass no longer waits on memory, and the halo rows it recomputes only add work.
bool is_multistep_pass(int k);

// How a run of n steps splits into passes: sim/pass_steps.hpp (shared with heat and Gray-Scott `temporal`).

}  // namespace ks::sim
