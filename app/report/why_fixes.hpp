#pragma once
// The fixes the "Why" explainer names: other variants of the kernel (from the registry), and blocks (from the
// occupancy model over the blocks the variant takes). Private to the explainer (why_*.cpp).
#include <optional>
#include <string>
#include <vector>

#include "report/why_input.hpp"

namespace ks::report::why {

// The variants of the run's kernel after its own, on its backend, that can run its parameters: the registry
// lists each kernel's variants from the lesson to the fastest (naive, tiled, separable; atomic, shared,
// warp). Empty for a user's kernel or the last variant.
std::vector<std::string> later_variants(const WhyInput& in);
// "--variant tiled (Each block loads its tile ... once, then computes)" for the next variant, and the one
// after it by name; empty when there is none.
std::string variant_fix(const WhyInput& in);

// "--block 32x8", or "--block 256" for kernels of 1-D blocks.
std::string block_option(const WhyInput& in, BlockShape block);

// The theoretical occupancy at `block` (occupancy_limits on the device and the variant's resources there);
// none when either is unknown or the device cannot run the block.
std::optional<OccupancyLimits> occupancy_at(const WhyInput& in, BlockShape block);

// Among the candidate blocks, the one of highest theoretical occupancy (the nearest thread count to the
// run's block among equals), when it beats the run's own by `gain_points` percentage points.
struct BlockChoice {
  BlockShape block;
  OccupancyLimits limits;
};
std::optional<BlockChoice> block_raising_occupancy(const WhyInput& in, double occupancy, double gain_points);

}  // namespace ks::report::why
