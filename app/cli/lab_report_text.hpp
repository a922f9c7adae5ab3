#pragma once
// The text a lab run prints: what ran, the launch arithmetic, upload / kernel / download with rates, the
// streams' gain, cost and rates against the copy bandwidth, the check against the CPU, facts and notes, and with
// --streams a small chart of the timeline.
#include <string>
#include <vector>

#include "lab/lab_report.hpp"

namespace ks::cli {

std::string lab_report_text(const lab::LabReport& report);
// Lanes upload / kernel / download over `width` columns from 0 to `end_ms` (at least the bars' end); each bar
// drawn with its stream's digit.
std::string timeline_chart(const std::vector<lab::TimelineBar>& bars, int width, double end_ms = 0);

}  // namespace ks::cli
