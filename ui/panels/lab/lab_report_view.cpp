// A lab run's report in the Lab section (the check against the CPU first, as for stencils; then the launch
// arithmetic, timings, rates, facts, notes and series), and the size sweep's log-log plot.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "report/text_format.hpp"
#include "panels/lab/lab_sections.hpp"
#include "panels/log_log_plot.hpp"
#include "panels/panel_sections.hpp"

namespace ks::ui::panels {

namespace {

const ImVec4 kAgrees{0.45f, 0.85f, 0.45f, 1.0f};
const ImVec4 kDisagrees{1.0f, 0.45f, 0.4f, 1.0f};

// A row whose value wraps inside its cell: facts and check details can be a sentence long.
void row(const char* name, const std::string& value, const char* help = nullptr) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextUnformatted(name);
  if (help && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextWrapped("%s", value.c_str());
}

std::string ms_text(const TimingStats& t) {
  if (t.count == 0) return "-";
  return fmt::format("{} ms (min {})", report::format_ms(t.median_ms), report::format_ms(t.min_ms));
}

void check_rows(const lab::LabReport& r) {
  const lab::LabCheck& c = r.check;
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextUnformatted("vs CPU");
  ImGui::TableSetColumnIndex(1);
  if (!c.checked)
    note_text(c.detail.empty() ? "not checked" : c.detail);
  else
    ImGui::TextColored(c.agrees ? kAgrees : kDisagrees, "%s", c.agrees ? "agrees" : "DISAGREES");
  if (c.checked) {
    row("max error", fmt::format("{:.3g} abs, {:.3g} rel", c.max_abs_error, c.max_rel_error));
    row("bound", fmt::format("{:.3g}", c.bound), c.detail.c_str());
  }
  if (r.cpu_reference_ms > 0) row("CPU reference", report::format_ms(r.cpu_reference_ms) + " ms");
}

void launch_rows(const lab::LaunchArithmetic& a) {
  const std::string grid = a.grid_y > 1 ? fmt::format("{}x{}", a.grid_x, a.grid_y) : std::to_string(a.grid_x);
  row("launch", fmt::format("{} blocks x {} threads", grid, a.threads_per_block), a.kernel_name.c_str());
  row("threads", fmt::format("{} for {} items", a.total_threads, a.work_items));
  if (a.items_per_thread > 1)
    row("per thread", fmt::format("{:.1f} items (grid-stride loop)", a.items_per_thread));
  else
    row("idle threads", std::to_string(a.idle_threads), "threads of the last block with no item");
  if (a.slots > 0) {
    row("blocks per SM", fmt::format("{} x {} SMs = {} per wave", a.blocks_per_sm, a.sms, a.slots),
        "resident at once, from the occupancy");
    row("waves", fmt::format("{:.2f} ({} full{})", a.waves, a.full_waves,
                             a.tail_wave_occupancy < 1
                                 ? fmt::format(", tail {:.0f}% full", 100 * a.tail_wave_occupancy)
                                 : ""));
  }
}

void timing_rows(const lab::LabReport& r) {
  const bool cuda = r.backend == Backend::Cuda;
  if (cuda)
    row("upload",
        ms_text(r.upload_time) + (r.upload_gbps > 0 ? ", " + report::format_gbps(r.upload_gbps) + " GB/s" : ""));
  row("kernel", ms_text(r.kernel_time));
  if (cuda)
    row("download", ms_text(r.download_time) +
                        (r.download_gbps > 0 ? ", " + report::format_gbps(r.download_gbps) + " GB/s" : ""));
  if (cuda) row("end to end", ms_text(r.end_to_end_time));
  if (r.streams > 1)
    row("overlap",
        fmt::format("{:.2f} of the serial {} ms", r.overlap_ratio, report::format_ms(r.serial_sum_ms)),
        "the streamed end-to-end time over the serial upload + kernel + download");
  row("GB/s", report::format_gbps(r.gbps), "the bytes the kernel must move over its median time");
  const bool comparisons = r.operation_kind == lab::OperationKind::Comparison;
  if (comparisons)
    row("G comparisons/s", fmt::format("{:.3g}", r.giga_comparisons_per_s),
        "the comparisons any comparison sort needs (n log2 n) over the median time: no floating-point operations, "
        "so no GFLOP/s and no point on the FLOP roofline");
  else
    row("GFLOP/s", fmt::format("{:.3g}", r.gflops));
  row("% of copy BW", r.copy_bandwidth_gbps > 0 ? report::format_percent(r.percent_of_copy) : "- (CPU)",
      "against the GPU's device-to-device copy, measured once");
  if (comparisons)
    row("comparisons/byte", fmt::format("{:.3g}", r.comparisons_per_byte));
  else
    row("FLOP per byte", fmt::format("{:.3g}", r.arithmetic_intensity));
}

void series_plots(const lab::LabReport& r) {
  for (const lab::LabSeries& series : r.series) {
    std::vector<float> v;
    for (double x : series.values)
      if (std::isfinite(x)) v.push_back(float(x));
    if (v.empty()) continue;
    if (v.size() == 1) v.push_back(v.front());
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    const std::string overlay = fmt::format("{} per {}: {:.4g} -> {:.4g}", series.name, series.x_label,
                                            double(v.front()), double(v.back()));
    ImGui::PlotLines(("##" + series.name).c_str(), v.data(), int(v.size()), 0, overlay.c_str(), *lo,
                     *hi + (*hi - *lo) * 0.05f + 1e-6f, ImVec2(ImGui::GetContentRegionAvail().x, 70));
  }
}

}  // namespace

void draw_lab_report(const lab::LabReport& r, std::uint64_t number, bool current) {
  ImGui::Text("run %llu: %s (%s), %s", static_cast<unsigned long long>(number), r.kernel.c_str(),
              r.variant.c_str(), lab::to_string(r.size).c_str());
  ImGui::TextDisabled(
      "%s%s", r.device.c_str(),
      r.backend == Backend::Cuda
          ? fmt::format(", {}{}", lab::to_string(r.host),
                        r.streams > 1 ? fmt::format(", {} streams x {} chunks", r.streams, r.chunks) : "")
                .c_str()
          : "");
  if (!current) note_text("The request changed since this run: press Run to measure it.");
  if (ImGui::BeginTable("lab_report", 2, ImGuiTableFlags_RowBg)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 8.5f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    check_rows(r);
    timing_rows(r);
    if (r.launch) launch_rows(*r.launch);
    if (r.occupancy)
      row("occupancy",
          fmt::format("{:.0f}%, limited by {}; {} registers/thread", 100 * r.occupancy->occupancy,
                      r.occupancy->limiter, r.occupancy->registers_per_thread),
          "theoretical: active warps over the SM's maximum, and the resource that binds");
    for (const lab::LabFact& f : r.facts) row(f.name.c_str(), f.value);
    ImGui::EndTable();
  }
  if (!r.launch) ImGui::TextDisabled("launch arithmetic: CUDA runs of kernels written here");
  series_plots(r);
  for (const std::string& n : r.notes) note_text(n);
}

void draw_lab_sweep(const app::LabSweep& sweep) {
  ImGui::Text("size sweep: %s on the %s%s", sweep.kernel.c_str(), to_string(sweep.backend),
              sweep.running    ? " (running)"
              : sweep.complete ? ""
                               : " (cancelled)");
  LogLogPlot plot;
  plot.x_title = sweep.sizes.empty() || sweep.sizes.front().form == lab::SizeForm::Elements ? "n"
                 : sweep.sizes.front().form == lab::SizeForm::Grid                          ? "N*M"
                                                                                            : "M*N*K";
  plot.y_title = "kernel ms";
  for (std::size_t v = 0; v < sweep.variants.size(); ++v) {
    LogLogSeries s;
    s.name = sweep.variants[v];
    s.colour = series_colour(int(v));
    for (const app::LabSweepPoint& p : sweep.points)
      if (p.variant == sweep.variants[v]) s.points.emplace_back(float(p.size.elements()), float(p.kernel_ms));
    plot.series.push_back(std::move(s));
  }
  if (sweep.sizes.size() > 1)
    plot.x_range = ImVec2(float(sweep.sizes.front().elements()), float(sweep.sizes.back().elements()));
  draw_log_log_plot(plot, "##lab_sweep");
  ImGui::TextDisabled("%zu of %zu points; median of the timed runs", sweep.points.size(),
                      sweep.sizes.size() * sweep.variants.size());
  for (const std::string& f : sweep.failures) note_text(f);
}

}  // namespace ks::ui::panels
