#pragma once
// The roofline chart: log-log FLOP per byte against GFLOP/s, the memory slope up to the compute ceiling, and
// runs as labelled points. Drawn from plain values (roofline_model.hpp), so tests can draw it without runs.
#include <string>
#include <vector>

#include "lab/lab_report.hpp"
#include "panels/lab/roofline_model.hpp"
#include "session/lab/lab_document.hpp"

namespace ks::ui::panels {

// Draws at the cursor: the roofs that `peaks` knows (memory_gbps > 0: the slope; fma_gflops > 0: the
// ceiling), a line saying which are missing, and the points, coloured by kernel (a label "KERNEL VARIANT":
// the kernel is its series, the variant its label). Returns how many points were drawn.
// Points that carry their own roof (ceiling and memory names) are drawn under it: one labelled roof per
// distinct pair, so that no point is above its own.
int draw_roofline(const peaks::ComputePeaks& machine, const std::vector<peaks::RooflinePoint>& points,
                  float height = 200);

// The Lab's kept runs as the chart takes them: the newest run's backend's roofs, a point per run of that backend
// whose operations are FLOPs, and the kernels left off because their cost counts comparisons ("sort").
struct RooflineOfRuns {
  peaks::ComputePeaks machine;
  std::vector<peaks::RooflinePoint> points;
  std::string off_the_roof;
};
RooflineOfRuns roofline_of_runs(const std::vector<app::LabRun>& runs);
// The chart of roofline_of_runs, the newest run's ceiling_sentence and what was left off. Returns the points drawn.
int draw_roofline_of_runs(const std::vector<app::LabRun>& runs, float height = 200);

// The sentence under the chart saying which ceiling applies to a run: "matmul openblas is held against the
// ceiling of its own operations, f32 FMA (C GOP/s), and the copy (M GB/s); it is compute-bound there and
// reached P% of that roof." Empty without a ceiling.
std::string ceiling_sentence(const lab::LabReport& report);

}  // namespace ks::ui::panels
