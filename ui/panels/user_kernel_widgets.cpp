#include "panels/user_kernel_widgets.hpp"

#include <imgui.h>

#include <algorithm>

#include "panels/panel_sections.hpp"

namespace ks::ui::panels {

void declared_param_sliders(const std::vector<usercode::DeclaredParameter>& declared, const std::vector<double>& values,
                            PanelState& st, const std::function<void(std::size_t, double)>& set) {
  for (std::size_t i = 0; i < declared.size() && i < values.size(); ++i) {
    const usercode::DeclaredParameter& p = declared[i];
    ImGui::PushID(static_cast<int>(i));
    if (p.type == usercode::ParamType::Int) {
      int v = static_cast<int>(values[i]);
      if (ImGui::SliderInt(p.name.c_str(), &v, static_cast<int>(p.min), static_cast<int>(p.max), "%d",
                           ImGuiSliderFlags_AlwaysClamp))
        try_change(st, [&] { set(i, v); });
    } else {
      float v = static_cast<float>(values[i]);
      if (ImGui::SliderFloat(p.name.c_str(), &v, static_cast<float>(p.min), static_cast<float>(p.max), "%.4g",
                             ImGuiSliderFlags_AlwaysClamp))
        try_change(st, [&] { set(i, v); });
    }
    if (!p.description.empty() && ImGui::IsItemHovered()) wrapped_tooltip(p.description);
    ImGui::PopID();
  }
}

void tolerance_fields(usercode::Tolerance tolerance, PanelState& st,
                      const std::function<void(const usercode::Tolerance&)>& set) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  bool changed = ImGui::InputDouble("abs tolerance", &tolerance.abs, 0, 0, "%.3g", ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  changed |= ImGui::InputDouble("rel tolerance", &tolerance.rel, 0, 0, "%.3g", ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  help_marker("Two values agree when |a - b| <= abs + rel * max(|a|, |b|). u8 values: exact by default; f32: 1e-5 "
              "and 1e-5. Enter applies.");
  if (changed) try_change(st, [&] { set(tolerance); });
}

void first_difference_button(const usercode::Comparison& c, PanelState& st) {
  if (!c.first || !st.view) return;
  ImGui::SameLine();
  if (named_button(st.buttons, "Go to the first difference")) {
    st.view->center_x = float(c.first->x) + 0.5f;
    st.view->center_y = float(c.first->y) + 0.5f;
    st.view->zoom = std::max(st.view->zoom, 16.0f);
  }
}

}  // namespace ks::ui::panels
