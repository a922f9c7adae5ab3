// Your kernel in the Lab: shown at the top of the Lab section while a user's `array` kernel (from the kernel
// editor) runs instead of the chosen lab kernel's variants. Which lab arrays it gets, its declared parameters as
// widgets (their declared ranges, never clamped past them), the check against the lab kernel's CPU reference or a
// built-in variant of it the user picks (the differing count and fraction, max |diff|, the first differing
// element), the tolerances and the way back.
#include <fmt/format.h>
#include <imgui.h>

#include "panels/lab/lab_sections.hpp"
#include "panels/panel_sections.hpp"
#include "session/session.hpp"
#include "usercode/check/comparison.hpp"

namespace ks::ui::panels {

namespace {

void parameter_widgets(app::LabDocument& lab, const app::UserArrayChoice& user, PanelState& st) {
  const auto& declared = user.kernel->declarations.parameters;
  for (std::size_t i = 0; i < declared.size(); ++i) {
    const usercode::DeclaredParameter& p = declared[i];
    ImGui::PushID(static_cast<int>(i));
    if (p.type == usercode::ParamType::Int) {
      int v = static_cast<int>(user.params[i]);
      if (ImGui::SliderInt(p.name.c_str(), &v, static_cast<int>(p.min), static_cast<int>(p.max), "%d",
                           ImGuiSliderFlags_AlwaysClamp))
        try_change(st, [&] { lab.set_user_param(i, v); });
    } else {
      float v = static_cast<float>(user.params[i]);
      if (ImGui::SliderFloat(p.name.c_str(), &v, static_cast<float>(p.min), static_cast<float>(p.max), "%.4g",
                             ImGuiSliderFlags_AlwaysClamp))
        try_change(st, [&] { lab.set_user_param(i, v); });
    }
    if (!p.description.empty() && ImGui::IsItemHovered()) wrapped_tooltip(p.description);
    ImGui::PopID();
  }
}

void check_lines(const app::LabDocument::UserCheck& check) {
  const usercode::Comparison& c = check.comparison;
  (c.matches() ? note_text : warning_text)(
      fmt::format("Against {}: {}", check.reference, usercode::comparison_summary(c)));
  if (c.first && c.compared > 1)
    warning_text(fmt::format("first difference at {}: got {}, expected {}", usercode::position_text(c, *c.first),
                             usercode::value_text(c, c.first->got), usercode::value_text(c, c.first->expected)));
}

// Which of the lab kernel's variants the check runs: the CPU reference or a built-in one on the GPU, with the
// Kernel section's parameters (the stencil document's check follows the sidebar's built-in the same way).
void reference_combo(app::LabDocument& lab, bool cuda, PanelState& st) {
  const std::string current = lab.user_reference();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  if (ImGui::BeginCombo("check against", (lab.spec().id + ":" + current).c_str())) {
    for (const VariantSpec& v : lab.spec().variants) {
      const bool gpu = v.backend == Backend::Cuda;
      const std::string label =
          lab.spec().id + ":" + v.name + (gpu ? (cuda ? "" : " (needs a GPU)") : " (CPU reference)");
      ImGui::BeginDisabled(gpu && !cuda);
      if (ImGui::Selectable(label.c_str(), v.name == current) && v.name != current)
        try_change(st, [&] { lab.set_user_reference(v.name); });
      ImGui::EndDisabled();
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) wrapped_tooltip(v.help);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  help_marker("The built-in variant your kernel's output is compared with, run on the same inputs with the "
              "Kernel section's parameters. A GPU variant runs in the app, yours in its own process.");
}

void tolerance_widgets(app::LabDocument& lab, PanelState& st) {
  usercode::Tolerance tolerance = lab.user_tolerance();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  bool changed =
      ImGui::InputDouble("abs tolerance", &tolerance.abs, 0, 0, "%.3g", ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  changed |=
      ImGui::InputDouble("rel tolerance", &tolerance.rel, 0, 0, "%.3g", ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  help_marker("Two values agree when |a - b| <= abs + rel * max(|a|, |b|). int and unsigned arrays: exact by "
              "default; float and double: 1e-5 and 1e-5. A float sum's rounding depends on its order: a sum of "
              "many values may need a larger rel. Enter compares the kept results again.");
  if (changed) try_change(st, [&] { lab.set_user_tolerance(tolerance); });
}

}  // namespace

void draw_user_array_kernel(app::Session& s, PanelState& st) {
  app::LabDocument& lab = s.lab();
  const auto& user = lab.user_kernel();
  if (!user) return;
  ImGui::TextWrapped("%s", fmt::format("Your kernel {} ({}) runs instead of {}'s variants, in its own process on "
                                       "the GPU, on {}'s inputs. Run runs it again.",
                                       user->kernel->entry_facts().name, user->file_name, lab.spec().id,
                                       lab.spec().id)
                               .c_str());
  parameter_widgets(lab, *user, st);
  if (const auto& check = lab.user_check()) {
    std::string inputs;
    for (std::size_t i = 0; i < check->inputs.size(); ++i)
      inputs += fmt::format("{}in{} = {}", i ? ", " : "", i + 1, check->inputs[i]);
    ImGui::TextDisabled("%s", fmt::format("{}; out checked against {}", inputs, check->output).c_str());
    check_lines(*check);
  } else {
    const std::string reference = lab.spec().id + ":" + lab.user_reference();
    note_text(lab.running() ? "Running your kernel, then " + reference + " to check it..."
                            : "Checked against " + reference + " after each run.");
  }
  reference_combo(lab, s.device().cuda, st);
  tolerance_widgets(lab, st);
  if (named_button(st.buttons, "Back to the built-in variants"))
    try_change(st, [&] { s.use_user_array_kernel(std::nullopt); });
  ImGui::Separator();
}

}  // namespace ks::ui::panels
