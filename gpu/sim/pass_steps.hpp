#pragma once
// How a variant of several steps per pass (heat and Gray-Scott `temporal`, k = steps_per_pass) runs a step
// count that is not a multiple of k: whole passes of k while k steps are left, then passes of the largest
// power of two that fits (7 left at k = 8: 4, 2, 1), so any count is honoured exactly with at most log2(k)
// shorter passes.

namespace ks::sim {

// The steps of the next pass with `left` >= 1 steps to go; steps_per_pass is a power of two >= 1.
int steps_in_next_pass(int steps_per_pass, long long left);

}  // namespace ks::sim
