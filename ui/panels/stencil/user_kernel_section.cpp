// Your kernel: shown while a kernel of the user's (from the kernel editor) runs instead of the built-in one. Its
// declared parameters as widgets (their declared ranges, never clamped past them), what it is checked against
// (the built-in chosen below, on the CPU) and the way back to the built-in.
#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>

#include "panels/panel_sections.hpp"
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
  const auto& declared = user->kernel->declarations.parameters;
  for (std::size_t i = 0; i < declared.size(); ++i) {
    const usercode::DeclaredParameter& p = declared[i];
    ImGui::PushID(static_cast<int>(i));
    if (p.type == usercode::ParamType::Int) {
      int v = static_cast<int>(user->params[i]);
      if (ImGui::SliderInt(p.name.c_str(), &v, static_cast<int>(p.min), static_cast<int>(p.max), "%d",
                           ImGuiSliderFlags_AlwaysClamp))
        try_change(st, [&] { s.stencil().set_user_param(i, v); });
    } else {
      float v = static_cast<float>(user->params[i]);
      if (ImGui::SliderFloat(p.name.c_str(), &v, static_cast<float>(p.min), static_cast<float>(p.max), "%.4g",
                             ImGuiSliderFlags_AlwaysClamp))
        try_change(st, [&] { s.stencil().set_user_param(i, v); });
    }
    if (!p.description.empty() && ImGui::IsItemHovered()) wrapped_tooltip(p.description);
    ImGui::PopID();
  }
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
    if (c.first && st.view) {
      ImGui::SameLine();
      if (named_button(st.buttons, "Go to the first difference")) {
        // Centred and magnified, so that the pixel inspector reads it under the pointer.
        st.view->center_x = float(c.first->x) + 0.5f;
        st.view->center_y = float(c.first->y) + 0.5f;
        st.view->zoom = std::max(st.view->zoom, 16.0f);
      }
    }
  } else {
    note_text(fmt::format("Checked against {} on the CPU (pick another kernel below to check against it) once the "
                          "values settle.",
                          s.kernel().id));
  }
  usercode::Tolerance tolerance = s.stencil().user_tolerance();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  bool changed = ImGui::InputDouble("abs tolerance", &tolerance.abs, 0, 0, "%.3g", ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  changed |= ImGui::InputDouble("rel tolerance", &tolerance.rel, 0, 0, "%.3g", ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  help_marker("Two values agree when |a - b| <= abs + rel * max(|a|, |b|). u8 images: exact by default; f32: 1e-5 "
              "and 1e-5. Enter applies.");
  if (changed) try_change(st, [&] { s.stencil().set_user_tolerance(tolerance); });
  if (named_button(st.buttons, "Back to the built-in kernel")) try_change(st, [&] { s.use_user_kernel(std::nullopt); });
}

}  // namespace ks::ui::panels
