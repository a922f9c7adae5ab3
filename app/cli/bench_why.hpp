#pragma once
// The "Why" paragraph of `bench`: one line per kind of finding with the cases it was found in, not every
// finding of every row (a sweep of 40 cases would print pages; `run` or `lab` on one case gives them in full,
// and the JSON holds each row's findings in its report).
#include <string>
#include <vector>

#include "cli/bench_results.hpp"
#include "core/device_info.hpp"
#include "report/why_finding.hpp"

namespace ks::cli {

// The findings of a row's report (lab or stencil); `cuda`: the GPU of the CUDA rows (null: none).
std::vector<report::WhyFinding> bench_row_why(const BenchRow& row, const DeviceInfo* cuda);

// "Why (by finding; `run` or `lab` on one case explains it in full):\n  first-launch in 3 of 8 cases: box
// naive ..., ...\n"; "" when no row has a finding.
std::string bench_why_summary(const std::vector<BenchRow>& rows, const DeviceInfo* cuda);

}  // namespace ks::cli
