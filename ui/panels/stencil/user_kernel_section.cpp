// Your kernel: shown while a kernel of the user's (from the kernel editor) runs instead of the built-in one. Its
// declared parameters as widgets (their declared ranges, never clamped past them), what it is checked against
// (the built-in chosen below, on the CPU) and the way back to the built-in.
#include <fmt/format.h>
#include <imgui.h>

#include "panels/panel_sections.hpp"
#include "panels/user_kernel_widgets.hpp"
#include "session/session.hpp"
#include "usercode/check/comparison.hpp"

namespace ks::ui::panels {

void draw_user_kernel_section(app::Session& s, PanelState& st) {
  const auto& user = s.stencil().user_kernel();
  if (!user) return;
  const usercode::KernelFacts& entry = user->kernel->entry_facts();
  ImGui::TextWrapped("%s", fmt::format("{} ({}) runs instead of {}, in its own process on the GPU.", entry.name,
                                       user->file_name, s.kernel().id)
                               .c_str());
  declared_param_sliders(user->kernel->declarations.parameters, user->params, st,
                         [&](std::size_t i, double v) { s.stencil().set_user_param(i, v); });
  const auto& check = s.stencil().user_check();
  if (check) {
    const usercode::Comparison& c = check->comparison;
    (c.matches() ? note_text : warning_text)(fmt::format("Against {} on the CPU: {}", s.kernel().id,
                                                         usercode::comparison_summary(c)));
    bool show = s.stencil().showing_difference();
    if (ImGui::Checkbox("Show the difference", &show)) s.stencil().set_show_difference(show);
    if (ImGui::IsItemHovered())
      wrapped_tooltip("|your result - the reference| per pixel (the largest over its channels) as a heatmap in "
                      "place of the result: black where nothing differs, pale yellow at the largest difference.");
    first_difference_button(c, st);
  } else {
    note_text(fmt::format("Checked against {} on the CPU (pick another kernel below to check against it) once the "
                          "values settle.",
                          s.kernel().id));
  }
  tolerance_fields(s.stencil().user_tolerance(), st,
                   [&](const usercode::Tolerance& t) { s.stencil().set_user_tolerance(t); });
  if (named_button(st.buttons, "Back to the built-in kernel")) try_change(st, [&] { s.use_user_kernel(std::nullopt); });
}

}  // namespace ks::ui::panels
