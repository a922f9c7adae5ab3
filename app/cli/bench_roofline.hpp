#pragma once
// `bench --roofline FILE.png`: the bench's results as roofline series, one per backend measured, each point
// labelled compactly ("box naive u8 32x8", "matmul regtiled 256") so that many fit on the chart.
#include <map>
#include <vector>

#include "cli/bench_results.hpp"
#include "core/peaks.hpp"
#include "report/roofline_chart.hpp"

namespace ks::cli {

// "box naive u8", "box naive u8 32x8" (with a block), "matmul regtiled 256x1024x512" for lab kernels.
std::string roofline_label(const BenchCase& c);
// The Ok rows grouped by backend (in the order of `peaks`), with their backend's peaks.
std::vector<report::RooflineSeries> roofline_series(const std::vector<BenchRow>& rows,
                                                    const std::map<Backend, ComputePeaks>& peaks);

}  // namespace ks::cli
