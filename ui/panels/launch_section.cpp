// Launch: the CUDA block shape (only shapes this GPU can launch are offered), its theoretical occupancy and the
// resource that binds it, the runtime's suggestion, and the block sweep with its heatmap.
#include <fmt/format.h>
#include <imgui.h>

#include "cli/text_format.hpp"
#include "panels/panel_sections.hpp"
#include "panels/sweep_heatmap.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

namespace {

// One side of the block: the powers of two this GPU allows with the other side as it is.
void block_side_combo(app::Session& s, PanelState& st, const char* label, bool width) {
  const DeviceInfo& d = s.device().info;
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

void occupancy_rows(const app::Session& s) {
  const auto& info = s.launch_info();
  if (!info.occupancy) {
    if (!info.problem.empty()) error_text(info.problem);
    return;
  }
  const OccupancyReport& o = *info.occupancy;
  const std::string bar = fmt::format("{:.0f}% occupancy", 100.0 * o.occupancy);
  ImGui::ProgressBar(float(o.occupancy), ImVec2(-1, 0), bar.c_str());
  help_marker("Theoretical occupancy: the warps of the blocks that fit on one SM at once, over the SM's maximum. "
              "It is limited by whichever runs out first: warps, registers, shared memory or blocks per SM.");
  ImGui::Text("limited by %s", o.limiter.c_str());
  ImGui::Text("%d blocks/SM, %d threads/block", o.active_blocks_per_sm, o.block_threads);
  ImGui::Text("%d registers/thread, %s shared/block", o.registers_per_thread,
              cli::format_bytes(o.static_shared_bytes + o.dynamic_shared_bytes).c_str());
  note_text("kernel: " + o.kernel_name);
}

}  // namespace

void draw_launch_section(app::Session& s, PanelState& st) {
  if (s.backend() != Backend::Cuda) {
    note_text(s.launch_info().problem);
    return;
  }
  block_side_combo(s, st, "block width", true);
  block_side_combo(s, st, "block height", false);
  if (ImGui::Button("Suggest")) {
    try_change(st, [&] { s.set_block(s.suggest_block()); });
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("cudaOccupancyMaxPotentialBlockSize for this kernel and variant, as a 32-wide block");
  ImGui::SameLine();
  if (ImGui::Button("Default")) try_change(st, [&] { s.set_block(std::nullopt); });
  ImGui::SameLine();
  ImGui::TextDisabled("%s%s", to_string(s.effective_block()).c_str(), s.block() ? "" : " (default)");
  occupancy_rows(s);

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
