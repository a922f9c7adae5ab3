#pragma once
// The roofline chart: log-log FLOP per byte against GFLOP/s, the memory slope up to the compute ceiling, and
// runs as labelled points. Drawn from plain values (roofline_model.hpp), so tests can draw it without runs.
#include <vector>

#include "panels/lab/roofline_model.hpp"

namespace ks::ui::panels {

// Draws at the cursor: the roofs that `peaks` knows (memory_gbps > 0: the slope; fma_gflops > 0: the
// ceiling), a line saying which are missing, and the points, coloured by kernel (a label "KERNEL VARIANT":
// the kernel is its series, the variant its label). Returns how many points were drawn.
int draw_roofline(const peaks::ComputePeaks& machine, const std::vector<peaks::RooflinePoint>& points);

}  // namespace ks::ui::panels
