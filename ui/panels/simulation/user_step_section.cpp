// Your kernel, for a `step` kernel of the user's stepping the live simulation (issue 24): its declared parameters,
// its check against the built-in simulation on the CPU (a step from the state shown, or more), the difference in
// place of the state, and the way back to the built-in steps. Stepping, Reset, the brush and the timing stay the
// Simulation and Timing sections'.
#include <fmt/format.h>
#include <imgui.h>

#include "panels/panel_sections.hpp"
#include "panels/user_kernel_widgets.hpp"
#include "session/session.hpp"
#include "usercode/check/comparison.hpp"

namespace ks::ui::panels {

void draw_user_step_section(app::Session& s, PanelState& st) {
  app::SimulationRunner& sim = s.simulation();
  const auto& user = sim.user_step();
  if (!user) return;
  const usercode::KernelFacts& entry = user->kernel->entry_facts();
  ImGui::TextWrapped("%s", fmt::format("{} ({}) steps {} instead of its built-in variant, in its own process on the "
                                       "GPU.",
                                       entry.name, user->file_name, s.kernel().id)
                               .c_str());
  declared_param_sliders(user->kernel->declarations.parameters, user->params, st,
                         [&](std::size_t i, double v) { sim.set_user_param(i, v); });
  if (const auto& check = sim.user_check()) {
    const usercode::Comparison& c = check->comparison;
    (c.matches() ? note_text : warning_text)(
        fmt::format("{} step{} from generation {}, against {}: {}", check->steps, check->steps == 1 ? "" : "s",
                    check->generation, check->reference, usercode::comparison_summary(c)));
    bool show = sim.showing_difference();
    if (ImGui::Checkbox("Show the difference", &show)) sim.set_show_difference(show);
    if (ImGui::IsItemHovered())
      wrapped_tooltip("|yours - the built-in| per cell after the checked steps, as a heatmap in place of the state: "
                      "black where nothing differs, pale yellow at the largest difference.");
    first_difference_button(c, st);
  } else {
    note_text(fmt::format("Checked against {} on the CPU: one step from the state shown, when it starts.",
                          s.kernel().id));
  }
  ImGuiStorage* storage = ImGui::GetStateStorage();
  int* steps = storage->GetIntRef(ImGui::GetID("check_steps"), 1);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::InputInt("steps##check", steps);
  ImGui::SameLine();
  if (named_button(st.buttons, "Check from here")) try_change(st, [&] { sim.check_user_steps(*steps); });
  ImGui::SameLine();
  help_marker("Runs that many steps of your kernel and of the built-in (on the CPU, its parameters as the Kernel "
              "section sets them) from the state shown, and compares the states they reach. The simulation itself "
              "does not move.");
  tolerance_fields(sim.user_tolerance(), st, [&](const usercode::Tolerance& t) { sim.set_user_tolerance(t); });
  if (named_button(st.buttons, "Back to the built-in steps"))
    try_change(st, [&] { s.use_user_step_kernel(std::nullopt); });
}

}  // namespace ks::ui::panels
