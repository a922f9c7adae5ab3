// Your kernel: shown while a kernel of the user's (from the kernel editor) runs instead of the built-in one. Its
// declared parameters as widgets (their declared ranges, never clamped past them), what it is checked against
// (the built-in chosen below, on the CPU) and the way back to the built-in.
#include <fmt/format.h>
#include <imgui.h>

#include "panels/panel_sections.hpp"
#include "session/session.hpp"

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
  const auto& ref = s.cpu_reference();
  if (ref)
    (ref->identical ? note_text : warning_text)(
        ref->identical ? fmt::format("Equal to {} on the CPU, pixel for pixel.", s.kernel().id)
                       : fmt::format("Differs from {} on the CPU: max |difference| {:.3g}.", s.kernel().id,
                                     ref->max_abs_difference));
  else
    note_text(fmt::format("Checked against {} on the CPU (pick another kernel below to check against it) once the "
                          "values settle.",
                          s.kernel().id));
  if (named_button(st.buttons, "Back to the built-in kernel")) try_change(st, [&] { s.use_user_kernel(std::nullopt); });
}

}  // namespace ks::ui::panels
