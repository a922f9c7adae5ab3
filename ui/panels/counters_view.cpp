#include "panels/counters_view.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include "panels/panel_sections.hpp"
#include "report/counters_report.hpp"
#include "report/text_format.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

namespace {

void counter_table(const KernelCounters& c, const std::optional<OccupancyReport>& occupancy, double operations) {
  using report::format_bytes;
  using report::format_percent;
  if (!ImGui::BeginTable("counters", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  table_row("DRAM", fmt::format("{} read, {} written", format_bytes(std::uint64_t(c.dram_read_bytes)),
                                format_bytes(std::uint64_t(c.dram_write_bytes))),
            "bytes that crossed device memory in the launch measured (the caches keep the rest)");
  table_row("DRAM throughput", format_percent(c.dram_throughput_pct) + " of peak");
  if (const double intensity = report::measured_intensity(c, operations); operations > 0 && intensity > 0)
    table_row("measured intensity", report::format_intensity(intensity) + " op/B",
              "the cost model's operations over the DRAM bytes measured: the roofline's second dot");
  const bool all = c.set == CounterSet::All;
  if (all) table_row("SM throughput", format_percent(c.sm_throughput_pct) + " of peak");
  table_row("occupancy", format_percent(c.achieved_occupancy_pct) + " achieved" +
                             (occupancy ? ", " + format_percent(occupancy->occupancy * 100.0) + " theoretical" : ""),
            "active warps per SM over its maximum, averaged over the launch");
  if (all) {
    table_row("L1 / L2 hit", format_percent(c.l1_hit_rate_pct) + " / " + format_percent(c.l2_hit_rate_pct));
    table_row("sectors/request", fmt::format("{:.2f} load, {:.2f} store", c.load_sectors_per_request(),
                                             c.store_sectors_per_request()),
              "32-byte sectors per warp-wide global access: 32 lanes reading adjacent 4-byte values need 4");
    table_row("bank conflicts",
              fmt::format("{:.2f} per shared instruction", c.bank_conflicts_per_shared_instruction()),
              "extra shared-memory wavefronts: 0 when the lanes of a warp hit different banks");
  } else {
    table_row("not read", "SM throughput, hit rates, sectors per request, bank conflicts",
              "the one-pass set leaves them out: choose all to read them");
  }
  table_row("warp efficiency", format_percent(c.warp_execution_efficiency_pct),
            "the share of a warp's lanes that run each instruction: divergence and idle lanes lower it");
  ImGui::EndTable();
}

}  // namespace

void draw_counters(app::Session& s, const CountersShown& shown) {
  bool on = s.counters();
  if (ImGui::Checkbox("Counters", &on)) s.set_counters(on);
  ImGui::SameLine();
  help_marker("Reads the GPU's hardware counters (CUPTI) of one more launch after the timed ones, so that the "
              "timings stay clean. Off by default: the extra launch runs once per counter pass.");
  if (!on) return;
  ImGui::SameLine();
  int all = s.counter_set() == CounterSet::All ? 1 : 0;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  // How many passes all the counters take depends on the GPU (9 on an H100): say the count once a reading has it.
  const KernelCounters* shown_counters = shown.counters && *shown.counters ? &**shown.counters : nullptr;
  const bool passes_known = shown_counters && shown_counters->set == CounterSet::All && shown_counters->passes > 0;
  const std::string all_label =
      passes_known ? fmt::format("all ({} passes)", shown_counters->passes) : std::string("all (several passes)");
  const std::string choices = std::string("one pass") + '\0' + all_label + '\0';
  if (ImGui::Combo("##counter-set", &all, choices.c_str()))
    s.set_counter_set(all ? CounterSet::All : CounterSet::Quick);
  ImGui::SameLine();
  help_marker("One pass (about 50 ms a kernel): DRAM bytes and throughput, achieved occupancy, warp efficiency. "
              "All: also the SM throughput, the L1 and L2 hit rates, sectors per request and bank conflicts, "
              "which the Why section needs to tell uncoalesced access and bank conflicts; each kernel then runs "
              "once per pass under the profiler (9 passes on an H100).");
  if (shown.counters && *shown.counters) {
    note_text("of one more launch of " + (*shown.counters)->kernel_name);
    counter_table(**shown.counters, shown.occupancy ? *shown.occupancy : std::nullopt, shown.operations);
  } else if (!shown.unavailable.empty()) {
    note_text("No counters: " + shown.unavailable);
  } else {
    note_text("The next CUDA run reads them.");
  }
}

}  // namespace ks::ui::panels
