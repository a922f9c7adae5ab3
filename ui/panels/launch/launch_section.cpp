// Launch: the CUDA block shape (only shapes this GPU can launch are offered), its theoretical occupancy and the
// resource that binds it, the runtime's suggestion, and the block sweep with its heatmap. Without a GPU (or for
// comparison) a device model: the block shapes, occupancy and launch overlay as that GPU would have them.
#include <fmt/format.h>
#include <imgui.h>

#include "report/text_format.hpp"
#include "core/device_models.hpp"
#include "panels/panel_sections.hpp"
#include "panels/launch/sweep_heatmap.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

namespace {

// One side of the block: the powers of two this GPU allows with the other side as it is.
void block_side_combo(app::Session& s, PanelState& st, const DeviceInfo& d, const char* label, bool width) {
  const BlockShape b = s.effective_block();
  const int current = width ? b.x : b.y;
  const int other = width ? b.y : b.x;
  const int limit = width ? d.max_block_dim_x : d.max_block_dim_y;
  if (ImGui::BeginCombo(label, std::to_string(current).c_str())) {
    for (int side : app::power_of_two_sides(limit)) {
      if (side * other > d.max_threads_per_block) break;
      if (ImGui::Selectable(std::to_string(side).c_str(), side == current) && side != current) {
        const BlockShape next = width ? BlockShape{side, other} : BlockShape{other, side};
        try_change(st, [&] { s.set_block(next); });
      }
    }
    ImGui::EndCombo();
  }
}

void occupancy_rows(const std::optional<OccupancyReport>& occupancy, const std::string& problem) {
  if (!occupancy) {
    if (!problem.empty()) error_text(problem);
    return;
  }
  const OccupancyReport& o = *occupancy;
  const std::string bar = fmt::format("{:.0f}% occupancy", 100.0 * o.occupancy);
  ImGui::ProgressBar(float(o.occupancy), ImVec2(-1, 0), bar.c_str());
  help_marker("Theoretical occupancy: the warps of the blocks that fit on one SM at once, over the SM's maximum. "
              "It is limited by whichever runs out first: warps, registers, shared memory or blocks per SM.");
  ImGui::Text("limited by %s", o.limiter.c_str());
  ImGui::Text("%d blocks/SM, %d threads/block", o.active_blocks_per_sm, o.block_threads);
  ImGui::Text("%d registers/thread, %s shared/block", o.registers_per_thread,
              report::format_bytes(o.static_shared_bytes + o.dynamic_shared_bytes).c_str());
  note_text("kernel: " + o.kernel_name);
}

// "Device model": none, or one of the published-limits models, labelled as a model.
void device_model_combo(app::Session& s, PanelState& st, bool gpu_here) {
  const std::string current = s.device_model().empty() ? "none" : device_model(s.device_model()).limits.name;
  if (ImGui::BeginCombo(gpu_here ? "compare with" : "device model", current.c_str())) {
    if (ImGui::Selectable("none", s.device_model().empty())) try_change(st, [&] { s.set_device_model(""); });
    for (const DeviceModel& m : device_models())
      if (ImGui::Selectable(m.limits.name.c_str(), m.id == s.device_model()))
        try_change(st, [&] { s.set_device_model(m.id); });
    ImGui::EndCombo();
  }
  help_marker("A device model: a GPU's published limits (SMs, threads, registers, shared memory per SM and per "
              "block), so block shapes, occupancy and the launch grid can be explored without that GPU. Its "
              "occupancy uses the kernels' register counts from the build, not a measurement.");
  if (!s.device_model().empty()) note_text(gpu_here ? "model, for comparison with this GPU" : "model (no GPU here)");
}

// The CUDA variant pictured while the CPU backend runs.
void modelled_variant_combo(app::Session& s, PanelState& st) {
  const std::string current = s.modelled_variant();
  if (ImGui::BeginCombo("CUDA variant", current.c_str())) {
    for (const VariantSpec& v : s.kernel().variants)
      if (v.backend == Backend::Cuda && ImGui::Selectable(v.name.c_str(), v.name == current))
        try_change(st, [&] { s.set_modelled_variant(v.name); });
    ImGui::EndCombo();
  }
}

void launch_grid_checkbox(PanelState& st) {
  if (!st.view) return;
  ImGui::Checkbox("Launch grid (G)", &st.view->show_launch_grid);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Draw the blocks over the image; hover a pixel for its blockIdx, threadIdx and the pixels "
                      "it reads");
}

// The CPU backend with a device model: the block, occupancy and overlay of a modelled CUDA launch.
void modelled_launch(app::Session& s, PanelState& st) {
  const DeviceInfo& model = device_model(s.device_model()).limits;
  modelled_variant_combo(s, st);
  block_side_combo(s, st, model, "block width", true);
  block_side_combo(s, st, model, "block height", false);
  if (ImGui::Button("Default")) try_change(st, [&] { s.set_block(std::nullopt); });
  ImGui::SameLine();
  ImGui::TextDisabled("%s%s", to_string(s.effective_block()).c_str(), s.block() ? "" : " (default)");
  const app::LaunchPicture p = s.launch_picture();
  occupancy_rows(p.occupancy, p.occupancy_note);
  if (p.occupancy) note_text(model.name + ": " + p.occupancy_note);
  launch_grid_checkbox(st);
}

}  // namespace

void draw_launch_section(app::Session& s, PanelState& st) {
  if (s.backend() != Backend::Cuda) {
    note_text(s.launch_info().problem);
    if (s.in_lab()) return;
    device_model_combo(s, st, false);
    if (!s.device_model().empty()) modelled_launch(s, st);
    return;
  }
  block_side_combo(s, st, s.device().info, "block width", true);
  block_side_combo(s, st, s.device().info, "block height", false);
  if (ImGui::Button("Suggest")) {
    try_change(st, [&] { s.set_block(s.suggest_block()); });
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("cudaOccupancyMaxPotentialBlockSize for this kernel and variant, as a 32-wide block");
  ImGui::SameLine();
  if (ImGui::Button("Default")) try_change(st, [&] { s.set_block(std::nullopt); });
  ImGui::SameLine();
  ImGui::TextDisabled("%s%s", to_string(s.effective_block()).c_str(), s.block() ? "" : " (default)");
  occupancy_rows(s.launch_info().occupancy, s.launch_info().problem);
  launch_grid_checkbox(st);
  if (!s.in_lab()) {
    device_model_combo(s, st, true);
    if (!s.device_model().empty()) {
      const app::LaunchPicture p = s.launch_picture();
      occupancy_rows(p.occupancy, p.occupancy_note);
    }
  }

  ImGui::Separator();
  if (s.sweep_running()) {
    if (ImGui::Button("Cancel sweep")) s.cancel();
  } else if (ImGui::Button("Sweep")) {
    try_change(st, [&] { s.start_sweep(); });
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Times every power-of-two block shape this GPU can run (%d timed launches each)",
                      s.options().sweep_repeat);
  if (const auto& grid = s.sweep()) {
    if (auto picked = draw_sweep_heatmap(*grid, s.effective_block())) try_change(st, [&] { s.set_block(*picked); });
  }
}

}  // namespace ks::ui::panels
