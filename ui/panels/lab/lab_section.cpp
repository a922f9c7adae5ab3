// Lab: while a lab kernel is chosen in the Kernel section (which keeps its variant and parameters), the size
// as log sliders (or typed exactly), the CUDA-only choices (block, host memory, streams) with why they are
// off on the CPU, Run and Sweep sizes, and the report of the last run (lab_report_view.cpp) and the sweep's
// plot.
#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "lab/lab.hpp"
#include "panels/lab/lab_sections.hpp"
#include "panels/panel_sections.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

namespace {

int floor_log2(std::int64_t v) {
  int e = 0;
  while (v > 1) v >>= 1, ++e;
  return e;
}

int ceil_log2(std::int64_t v) {
  const int e = floor_log2(v);
  return (std::int64_t(1) << e) < v ? e + 1 : e;
}

const char* dim_name(lab::SizeForm form, int d) {
  static const char* kGrid[] = {"N", "M"};
  static const char* kMatmul[] = {"M", "N", "K"};
  if (form == lab::SizeForm::Elements) return "n";
  return form == lab::SizeForm::Grid ? kGrid[d] : kMatmul[d];
}

// One log slider per dimension: powers of two over the kernel's range. A size that is no power of two shows
// at the power below it; typing it exactly is the field underneath.
void size_widgets(app::LabDocument& lab, PanelState& st) {
  const lab::LabInfo& info = lab.info();
  const lab::LabSize size = lab.effective_size();
  if (info.form == lab::SizeForm::Image) {
    ImGui::Text("size: the image, %s", lab::to_string(size).c_str());
    help_marker(lab.spec().id +
                " runs on the loaded image: open another one (File > Open image) to change it.");
    return;
  }
  for (int d = 0; d < size.rank(); ++d) {
    const std::size_t i = std::size_t(d);
    const int lo = ceil_log2(info.limits.min[i]), hi = floor_log2(info.limits.max[i]);
    int e = floor_log2(size.dims[i]);
    const std::string label = fmt::format("{}##size{}", dim_name(info.form, d), d);
    // No clamping: a value typed past the ends (Ctrl+click) is refused by the request's check, with the
    // range.
    if (ImGui::SliderInt(label.c_str(), &e, lo, hi, "2^%d")) {
      try_change(st, [&] {
        if (e < 0 || e > 62)
          throw_usage(fmt::format("2^{} is no size", e), "sizes run from 2^0 to 2^62 at most");
        lab::LabSize next = size;
        next.dims[i] = std::int64_t(1) << e;
        lab.set_size(next);
      });
    }
  }
  std::string& text = st.lab_size_text;
  if (st.lab_size_shown != lab::to_string(size))
    text = st.lab_size_shown = lab::to_string(size);  // a slider moved it
  if (ImGui::InputText("exact size", &text, ImGuiInputTextFlags_EnterReturnsTrue))
    try_change(st, [&] { lab.set_size_text(text); });
  help_marker(fmt::format("Type a size and press Enter: {} ({}). Sizes: 1048576, 2^20, 1M (= 2^20), 2^20+3.",
                          info.form == lab::SizeForm::Elements ? "n"
                          : info.form == lab::SizeForm::Grid   ? "NxM"
                                                               : "MxNxK",
                          lab::to_string(info.form)));
  const char* product = info.form == lab::SizeForm::Elements ? "elements"
                        : info.form == lab::SizeForm::Grid   ? "cells (N*M)"
                                                             : "M*N*K";
  ImGui::TextDisabled("%s %s", lab::short_text(size.elements()).c_str(), product);
}

void block_widget(app::LabDocument& lab, PanelState& st, bool cuda) {
  const lab::LabInfo& info = lab.info();
  const auto& block = lab.request().block;
  const std::string current = block ? (info.block_rank == 1 ? std::to_string(block->x) : to_string(*block))
                                    : "default (" +
                                          (info.block_rank == 1 ? std::to_string(info.default_block.x)
                                                                : to_string(info.default_block)) +
                                          ")";
  ImGui::BeginDisabled(!cuda);
  if (ImGui::BeginCombo("block", current.c_str())) {
    if (ImGui::Selectable("default", !block)) try_change(st, [&] { lab.set_block(std::nullopt); });
    const std::vector<BlockShape> shapes =
        info.block_rank == 1
            ? std::vector<BlockShape>{{32, 1}, {64, 1}, {128, 1}, {256, 1}, {512, 1}, {1024, 1}}
            : std::vector<BlockShape>{{8, 8}, {16, 16}, {32, 32}, {32, 8}, {16, 8}};
    for (const BlockShape& b : shapes) {
      const std::string name = info.block_rank == 1 ? std::to_string(b.x) : to_string(b);
      if (ImGui::Selectable(name.c_str(), block && *block == b)) try_change(st, [&] { lab.set_block(b); });
    }
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  help_marker(cuda ? (info.block_rank == 1
                          ? "Threads per block of this 1-D kernel; the run checks it against the "
                            "GPU and the variant (sort and the library variants take none)."
                          : "Block width x height of this 2-D kernel; the run checks it against the "
                            "GPU and the variant.")
                   : "CUDA only: the CPU backend has no blocks.");
}

void host_widget(app::LabDocument& lab, PanelState& st, bool cuda) {
  static const lab::HostMode kModes[] = {lab::HostMode::Pageable, lab::HostMode::Pinned,
                                         lab::HostMode::Mapped, lab::HostMode::Managed,
                                         lab::HostMode::ManagedPrefetch};
  ImGui::BeginDisabled(!cuda);
  if (ImGui::BeginCombo("host memory", lab::to_string(lab.request().host))) {
    for (lab::HostMode m : kModes)
      if (ImGui::Selectable(lab::to_string(m), m == lab.request().host))
        try_change(st, [&] { lab.set_host(m); });
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  help_marker(
      cuda ? "Where the arrays live: pageable (copied through the driver's staging buffer), pinned (DMA; "
             "needed for copies that overlap kernels), mapped (zero-copy: the kernel reads host memory over "
             "PCIe), managed (pages migrate during the kernel), managed-prefetch (prefetched as the upload)."
           : "CUDA only: the CPU backend's arrays are ordinary memory and nothing is copied.");
}

void streams_widget(app::LabDocument& lab, PanelState& st, bool cuda) {
  const bool splits = lab.info().splits;
  int k = lab.request().streams;
  ImGui::BeginDisabled(!cuda || !splits);
  if (ImGui::SliderInt("streams", &k, 1, 8) && k != lab.request().streams)  // checked, not clamped
    try_change(st, [&] { lab.set_streams(k); });
  ImGui::EndDisabled();
  help_marker(!cuda ? "CUDA only: streams overlap copies with kernels."
              : !splits
                  ? lab.spec().id + " cannot cut its work into independent chunks, so it runs in one stream."
                  : "K > 1 cuts the work into 4K chunks, chunk c uploaded, computed and downloaded in stream "
                    "c mod K (pinned memory lets copies overlap kernels). The serial run is done too; the "
                    "Timing section draws both timelines.");
}

void run_buttons(app::Session& s, app::LabDocument& lab, PanelState& st) {
  const bool busy = lab.running() || (lab.sweep() && lab.sweep()->running);
  ImGui::BeginDisabled(busy);
  if (ImGui::Button("Run")) try_change(st, [&] { lab.run(); });
  ImGui::SameLine();
  const bool sweeps = lab.info().form != lab::SizeForm::Image;
  ImGui::BeginDisabled(!sweeps);
  if (ImGui::Button("Sweep sizes")) try_change(st, [&] { lab.start_sweep(); });
  ImGui::EndDisabled();
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", sweeps ? "Times every variant of this backend at the current size, half of it, a "
                                     "quarter, ... (the timing only, no CPU check); the plot fills as it goes"
                                   : "kmeans runs on the image: its size is the image's");
  if (busy) {
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) s.cancel();
    const app::Worker::Status job = s.job_status();
    ImGui::ProgressBar(job.fraction >= 0 ? float(job.fraction) : 0.0f, ImVec2(-1, 0),
                       job.detail.empty() ? nullptr : job.detail.c_str());
  }
}

}  // namespace

void draw_lab_section(app::Session& s, PanelState& st) {
  app::LabDocument& lab = s.lab();
  if (!lab.active()) return note_text("Choose a lab kernel in the Kernel section.");
  draw_user_array_kernel(s, st);
  const bool cuda = s.backend() == Backend::Cuda;
  size_widgets(lab, st);
  block_widget(lab, st, cuda);
  host_widget(lab, st, cuda);
  streams_widget(lab, st, cuda);
  if (!cuda && !s.device().cuda)
    note_text("block, host memory and streams: CUDA only (" + s.device().unavailable_reason + ")");
  ImGui::TextDisabled("variant and parameters: in the Kernel section");
  run_buttons(s, lab, st);
  if (!st.error.empty()) error_text(st.error);
  if (lab.last_error()) error_text("Last run failed: " + lab.last_error()->full_message());

  ImGui::Separator();
  if (const app::LabRun* kept = lab.run_for_request()) {  // this very request was measured before
    draw_lab_report(kept->report, kept->number, true);
  } else if (lab.last_run()) {
    draw_lab_report(lab.last_run()->report, lab.last_run()->number, false);
  } else {
    note_text(lab.running() ? "Running..." : "Press Run to measure " + lab.spec().id + " at this size.");
  }
  if (lab.sweep() && lab.sweep()->kernel == lab.spec().id) {  // a sweep of another kernel may still be ending
    ImGui::Separator();
    draw_lab_sweep(*lab.sweep());
  }
}

}  // namespace ks::ui::panels
