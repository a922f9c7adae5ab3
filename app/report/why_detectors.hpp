#pragma once
// The "Why" explainer's detectors, one family per file; each appends what it finds and stays silent about
// what its input does not hold. Private to the explainer (why_explain.cpp runs them in order).
#include <vector>

#include "report/why_finding.hpp"
#include "report/why_input.hpp"

namespace ks::report::why {

// Transfers that dominate the kernel (pageable memory named), managed-memory page faults, the first launch:
// why_timing.cpp.
void find_timing_pitfalls(const WhyInput& in, std::vector<WhyFinding>& out);
// A memory-bound kernel far below the copy bandwidth, a compute-bound one far below its ceiling:
// why_roofline.cpp.
void find_roofline_pitfalls(const WhyInput& in, std::vector<WhyFinding>& out);
// From the hardware counters: uncoalesced access, bank conflicts, achieved occupancy, divergence:
// why_counters.cpp.
void find_counter_pitfalls(const WhyInput& in, std::vector<WhyFinding>& out);
// From the launch: low theoretical occupancy and its limiter, the tail effect, a block width not a multiple
// of 32: why_launch.cpp.
void find_launch_pitfalls(const WhyInput& in, std::vector<WhyFinding>& out);

// Whether the run came this close to its roof (then occupancy and launch shape hold nothing back).
bool near_roof(const WhyInput& in);

}  // namespace ks::report::why
