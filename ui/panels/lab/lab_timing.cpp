// Timing while a lab kernel is chosen: the last run's medians (upload, kernel, download, end to end and, with
// streams, the overlap against the serial run) and its copy/kernel timeline (lab_timeline.cpp).
#include <fmt/format.h>
#include <imgui.h>

#include "report/text_format.hpp"
#include "panels/counters_view.hpp"
#include "panels/lab/lab_sections.hpp"
#include "panels/panel_sections.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

namespace {

std::string stats_text(const TimingStats& t) {
  if (t.count == 0) return "-";
  return fmt::format("{} / {} / {} ms", report::format_ms(t.min_ms), report::format_ms(t.median_ms),
                     report::format_ms(t.p95_ms));
}

}  // namespace

void draw_lab_timing(app::Session& s, PanelState&) {
  // The run the Lab section shows: of this very request when it was measured, else the kernel's latest.
  const app::LabRun* run = s.lab().run_for_request();
  if (!run && s.lab().last_run()) run = &*s.lab().last_run();
  if (!run) return note_text("No lab run yet: press Run in the Lab section.");
  const lab::LabReport& r = run->report;
  const bool cuda = r.backend == Backend::Cuda;
  if (ImGui::BeginTable("lab_timing", 2, ImGuiTableFlags_RowBg)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 10.5f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    table_row("min / median / p95", "",
              "over the timed repeats, each timed with CUDA events (host clock on the CPU)");
    table_row("kernel", stats_text(r.kernel_time));
    table_row("upload", cuda ? stats_text(r.upload_time) : "- (CPU)");
    table_row("download", cuda ? stats_text(r.download_time) : "- (CPU)");
    if (cuda) table_row(r.streams > 1 ? "streamed end to end" : "end to end", stats_text(r.end_to_end_time));
    if (r.streams > 1) {
      table_row("serial sum", report::format_ms(r.serial_sum_ms) + " ms",
                "the serial run's median upload + kernel + download");
      table_row("overlap ratio", fmt::format("{:.3f}", r.overlap_ratio),
                "streamed end to end / serial sum: < 1 hides copies");
      if (r.streamed_matches_serial)
        table_row("same bytes",
                  *r.streamed_matches_serial ? "yes, as the serial run" : "NO: differs from the serial run");
    }
    ImGui::EndTable();
  }
  note_text(fmt::format("run {}: {} ({}), {}, {}", run->number, r.kernel, r.variant, lab::to_string(r.size),
                        r.device));
  draw_counters(s, CountersShown{&r.counters, r.counters_unavailable, &r.occupancy, double(r.cost.operations)});
  ImGui::Spacing();
  draw_lab_timeline(r);
  note_text("File > Export timings: this run with its bars (CSV, JSON with the size sweep)");
}

}  // namespace ks::ui::panels
