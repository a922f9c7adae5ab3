#pragma once
// The multistep Life variant (sim/cuda/life_multistep.cu) as the host sees it: the generations one pass may
// run and how a run of n steps splits into passes. No CUDA, so the CPU tests check it.

namespace ks::sim {

// Rows of the grid each warp of the multistep kernel writes per pass (its column holds 2 K more).
inline constexpr int kMultistepTileRows = 64;

// The generations per pass the kernel is compiled for: 1, 2, 4, 8 (the steps_per_pass parameter). Past 8 the
// pass no longer waits on memory, and the halo rows it recomputes only add work.
bool is_multistep_pass(int k);

// The generations of the next pass when `left` >= 1 steps remain and a pass runs at most k: k while k fit,
// then the largest power of two that fits, so any step count ends on the kernels that exist (7 = 4 + 2 + 1).
int multistep_pass(long long left, int k);

}  // namespace ks::sim
