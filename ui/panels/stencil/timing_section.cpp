// Timing: the current kernel's last runs as a live plot, their min / median / p95, the bandwidth against the
// measured copy bandwidth, upload / download / display as their own rows, and the CPU reference with the speedup.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <vector>

#include "report/text_format.hpp"
#include "panels/counters_view.hpp"
#include "panels/lab/lab_sections.hpp"
#include "panels/panel_sections.hpp"
#include "panels/simulation/simulation_section.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

namespace {

void row(const char* name, const std::string& value, const char* help = nullptr) { table_row(name, value, help); }

std::string ms_or_dash(double ms, bool present) { return present ? report::format_ms(ms) + " ms" : "-"; }

}  // namespace

void draw_timing_section(app::Session& s, PanelState& st) {
  if (s.simulating()) return draw_simulation_timing(s, st);
  if (s.in_lab()) return draw_lab_timing(s, st);
  // A kernel of the user's keeps its runs under its file's name.
  const std::string kernel = s.stencil().user_kernel() ? s.stencil().user_kernel()->file_name : s.kernel().id;
  // One series: the runs with the last run's input, variant, block, type and parameters (a change starts anew).
  const std::vector<app::TimingEntry> runs = s.history().series(kernel);
  if (runs.empty()) {
    note_text("No run of " + kernel + " yet.");
    return;
  }
  const app::TimingSummary sum = s.history().summary(kernel);
  std::vector<float> ms;
  ms.reserve(runs.size());
  for (const auto& e : runs) ms.push_back(float(e.kernel_ms()));
  if (ms.size() == 1) ms.push_back(ms.front());  // ImGui draws a line from two points: one run shows as a level
  const float top = float(std::max(sum.kernel.p95_ms, sum.kernel.median_ms) * 1.25);
  const std::string overlay = fmt::format("last {} ms", report::format_ms(ms.back()));
  ImGui::PlotLines("##kernel_ms", ms.data(), int(ms.size()), 0, overlay.c_str(), 0.0f, top,
                   ImVec2(ImGui::GetContentRegionAvail().x, 70));  // 1.86 PlotLines: no -1 "fill" width
  note_text(fmt::format("kernel median per run; {} run{} in this series", sum.runs, sum.runs == 1 ? "" : "s"));
  ImGui::SameLine();
  help_marker("The plot and the figures below cover one series: runs on the same image with the same variant, "
              "type, block and parameters. A change starts a new series; going back to earlier settings takes "
              "up their runs again. File > Export timings writes every run.");

  const app::TimingEntry& last = runs.back();
  const bool gpu = last.backend == Backend::Cuda;
  if (ImGui::BeginTable("timing", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    row("kernel min", ms_or_dash(sum.kernel.min_ms, true));
    row("kernel median", ms_or_dash(sum.kernel.median_ms, true), "median over the runs above");
    row("kernel p95", ms_or_dash(sum.kernel.p95_ms, true));
    row("bandwidth", report::format_gbps(last.gbps) + " GB/s",
        "the bytes the kernel must move (read the image once, write it once) over its median time");
    row("% of copy BW", gpu ? report::format_percent(last.percent_of_copy) : "- (CPU)",
        "against this GPU's device-to-device copy, measured at start: the practical limit");
    row("upload", gpu ? ms_or_dash(sum.median_upload_ms, true) : "- (CPU)", "host -> device, median over the runs");
    row("download", gpu ? (last.download_ms > 0 ? ms_or_dash(sum.median_download_ms, true) : "- (stays on GPU)")
                        : "- (CPU)",
        "device -> host; the app keeps CUDA results on the GPU and shows them through interop");
    row("display", ms_or_dash(sum.median_display_ms, sum.median_display_ms >= 0),
        "putting a new result on screen (interop write or host upload), median");
    const auto& ref = s.cpu_reference();
    if (ref) {
      row("CPU reference", ms_or_dash(ref->median_ms, true));
      row("speedup", gpu ? report::format_speedup(ref->median_ms / last.kernel_ms()) : "1x (is the reference)");
      row("vs CPU pixels", ref->identical ? std::string("identical")
                                          : fmt::format("max difference {:.3g}", ref->max_abs_difference));
    } else {
      row("CPU reference", gpu ? "runs when the values settle" : "-");
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("%s, %s, %s%s", last.variant.c_str(), last.device.c_str(), report::format_shape(last.shape).c_str(),
                      last.block ? (", block " + to_string(*last.block)).c_str() : "");
  if (const auto& report = s.stencil().last_report()) {
    draw_counters(s, CountersShown{&report->counters, report->counters_unavailable, &report->occupancy,
                                   double(report->cost.operations)});
  }
  if (!s.display_path().empty()) note_text("display: " + s.display_path());
  if (st.display_fps > 0) ImGui::TextDisabled("viewport %.0f fps", st.display_fps);
}

}  // namespace ks::ui::panels
