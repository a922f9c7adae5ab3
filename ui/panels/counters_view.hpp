#pragma once
// The Timing section's Counters switch and the hardware counters it read for the run shown (stencil, lab and
// simulation runs): a table of DRAM, SM, occupancy, caches, sectors per request, bank conflicts and warp efficiency, or why
// there are none.
#include <optional>
#include <string>

#include "core/kernel_counters.hpp"
#include "core/occupancy.hpp"

namespace ks::app {
class Session;
}

namespace ks::ui::panels {

struct CountersShown {
  const std::optional<KernelCounters>* counters = nullptr;
  std::string unavailable;  // why there are none, when they were asked for
  const std::optional<OccupancyReport>* occupancy = nullptr;  // the theoretical occupancy beside the achieved
  double operations = 0;  // the cost model's, for the measured intensity (0: none)
};

void draw_counters(app::Session& s, const CountersShown& shown);

}  // namespace ks::ui::panels
