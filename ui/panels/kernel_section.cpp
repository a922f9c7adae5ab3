// Kernel: which kernel, variant, backend and element type, and one widget per parameter, all from the registry.
#include <fmt/format.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string_view>

#include "panels/panel_sections.hpp"
#include "registry/registry.hpp"
#include "session/session.hpp"

namespace ks::ui::panels {

namespace {

// Wide ranges (border_value's +-65535) make a slider useless: one pixel of travel jumps hundreds. Those get a
// typed field; the session checks the value either way (ImGui's Ctrl+click can type past a slider's ends).
constexpr double kSliderSpan = 1000;

void int_widget(app::Session& s, PanelState& st, const ParamSpec& p) {
  int v = int(s.params().get_int(p.name));
  const bool changed = p.max - p.min <= kSliderSpan ? ImGui::SliderInt(p.name.c_str(), &v, int(p.min), int(p.max))
                                                    : ImGui::InputInt(p.name.c_str(), &v);
  if (changed) try_change(st, [&] { s.set_param(p.name, std::to_string(v)); });
}

void float_widget(app::Session& s, PanelState& st, const ParamSpec& p) {
  float v = float(s.params().get_float(p.name));
  const bool changed =
      p.max - p.min <= kSliderSpan
          ? ImGui::SliderFloat(p.name.c_str(), &v, float(p.min), float(p.max), "%.3g")
          : ImGui::InputFloat(p.name.c_str(), &v, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue);
  // {} prints a float's shortest exact form ("2.35", not "2.3499999"): the value the user saw is the value set.
  if (changed) try_change(st, [&] { s.set_param(p.name, fmt::format("{}", v)); });
}

void choice_widget(app::Session& s, PanelState& st, const ParamSpec& p) {
  const std::string& current = s.params().get_choice(p.name);
  if (ImGui::BeginCombo(p.name.c_str(), current.c_str())) {
    for (const auto& c : p.choices)
      if (ImGui::Selectable(c.c_str(), c == current) && c != current)
        try_change(st, [&] { s.set_param(p.name, c); });
    ImGui::EndCombo();
  }
}

void bool_widget(app::Session& s, PanelState& st, const ParamSpec& p) {
  bool v = s.params().get_bool(p.name);
  if (ImGui::Checkbox(p.name.c_str(), &v)) try_change(st, [&] { s.set_param(p.name, v ? "true" : "false"); });
}

// Matrices ("1,2,1; 2,4,2; 1,2,1") and text parameters are typed, then applied with the button or Enter
// (Ctrl+Enter starts a new line), so that a half-typed value is never run. Text parameters offer their examples.
void typed_widget(app::Session& s, PanelState& st, const ParamSpec& p, const std::string& current) {
  const std::string key = s.kernel().id + "/" + p.name;
  auto it = st.text_edits.find(key);
  if (it == st.text_edits.end()) it = st.text_edits.emplace(key, current).first;
  std::string& text = it->second;
  ImGui::TextUnformatted(p.name.c_str());
  const bool entered =
      p.type == ParamType::Matrix
          ? ImGui::InputTextMultiline(("##" + key).c_str(), &text, ImVec2(-1, ImGui::GetTextLineHeight() * 4),
                                      ImGuiInputTextFlags_EnterReturnsTrue)
          : ImGui::InputText(("##" + key).c_str(), &text, ImGuiInputTextFlags_EnterReturnsTrue);
  if (p.type == ParamType::Text && !p.choices.empty() && ImGui::BeginCombo(("examples##" + key).c_str(), nullptr,
                                                                           ImGuiComboFlags_NoPreview)) {
    for (const auto& c : p.choices)
      if (ImGui::Selectable(c.c_str())) text = c;
    ImGui::EndCombo();
  }
  const bool edited = text != current;
  ImGui::BeginDisabled(!edited);
  const bool apply = ImGui::Button(("Apply##" + key).c_str());
  ImGui::SameLine();
  if (ImGui::Button(("Revert##" + key).c_str())) text = current;
  ImGui::EndDisabled();
  if ((apply || entered) && edited) {
    const std::string typed = text;
    if (try_change(st, [&] { s.set_param(p.name, typed); })) st.text_edits.erase(key);  // shows the canonical form
  }
}

void param_widget(app::Session& s, PanelState& st, const ParamSpec& p) {
  ImGui::PushID(p.name.c_str());
  switch (p.type) {
    case ParamType::Int: int_widget(s, st, p); break;
    case ParamType::Float: float_widget(s, st, p); break;
    case ParamType::Choice: choice_widget(s, st, p); break;
    case ParamType::Bool: bool_widget(s, st, p); break;
    case ParamType::Matrix: typed_widget(s, st, p, format_matrix(s.params().get_matrix(p.name))); break;
    case ParamType::Text: typed_widget(s, st, p, s.params().get_text(p.name)); break;
  }
  help_marker(p.help + "\nRange: " + p.range_text() + "\nDefault: " + p.default_text);
  ImGui::PopID();
}

const char* type_label(ElemType t) { return t == ElemType::F32 ? "f32 (signed results visible)" : "u8"; }


// The kernel list's groups, in the order a class meets them. Topology has its own window rather than a kernel
// the sidebar runs: its row opens that window.
struct KernelGroup {
  const char* category;
  const char* header;
};
constexpr KernelGroup kGroups[] = {
    {"stencil", "Stencils"}, {"simulation", "Simulations"}, {"topology", "Topology"}, {"lab", "Lab"}};
constexpr const char* kTopologyRow = "Placement sweep and search";
constexpr const char* kTopologyHelp =
    "The topology sweep (every placement of the traffic's nodes on a network, timestamps x configurations) and "
    "the placement search run in the Topology window, beside the sidebar: View > Topology panel (T).";

float row_width(const std::string& title, const std::string& id) {
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::CalcTextSize(title.c_str()).x + ImGui::GetFontSize() * 2 + ImGui::CalcTextSize(id.c_str()).x +
         2 * style.WindowPadding.x + style.ScrollbarSize;
}

// One row: the title, and the id (what the CLI and playlists call it) dimmed at the right. The tooltip stands
// left of the list, so the list stays readable while the pointer moves down it.
bool kernel_row(const std::string& title, const std::string& id, bool selected, const std::string& help) {
  ImGui::PushID(id.c_str());
  const bool clicked = ImGui::Selectable(title.c_str(), selected);
  const bool hovered = ImGui::IsItemHovered();
  if (!id.empty()) {
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(id.c_str()).x);
    ImGui::TextDisabled("%s", id.c_str());
  }
  if (hovered) wrapped_tooltip(help, ImGui::GetWindowPos().x - ImGui::GetStyle().ItemSpacing.x);
  ImGui::PopID();
  return clicked;
}

void group_header(const char* text) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", text);
  ImGui::Separator();
}

void kernel_combo(app::Session& s, PanelState& st) {
  const auto& registry = KernelRegistry::builtin();
  const KernelSpec& spec = s.kernel();
  // Wide enough for the longest row, whatever the combo's own width: names are never cut.
  float widest = row_width(kTopologyRow, "");
  for (const auto& k : registry.kernels()) widest = std::max(widest, row_width(k.title, k.id));
  ImGui::SetNextWindowSizeConstraints(ImVec2(widest, 0), ImVec2(FLT_MAX, FLT_MAX));
  ImGui::SetNextWindowBgAlpha(1.0f);  // the section's widgets behind the list would show through its rows
  // The preview is the title alone: the id is in the list and the help.
  if (!ImGui::BeginCombo("kernel", spec.title.c_str(), ImGuiComboFlags_HeightLargest)) return;
  for (const KernelGroup& group : kGroups) {
    bool any = false;
    for (const auto& k : registry.kernels()) any = any || k.category == group.category;
    if (!any) continue;
    group_header(group.header);
    if (std::string_view(group.category) == "topology") {
      if (kernel_row(kTopologyRow, "", false, kTopologyHelp)) st.topology.open = true;
      continue;
    }
    for (const auto& k : registry.kernels()) {
      if (k.category != group.category || !app::Session::can_run(k)) continue;
      if (kernel_row(k.title, k.id, k.id == spec.id, k.description) && k.id != spec.id)
        try_change(st, [&] { s.select_kernel(k.id); });
    }
  }
  ImGui::EndCombo();
}

}  // namespace

void draw_kernel_section(app::Session& s, PanelState& st) {
  const KernelSpec& spec = s.kernel();
  kernel_combo(s, st);
  help_marker(spec.description);

  // Backend: CUDA only where there is a device; otherwise the reason is what the user reads.
  int backend = s.backend() == Backend::Cuda ? 1 : 0;
  ImGui::TextUnformatted("backend");
  ImGui::SameLine();
  if (ImGui::RadioButton("CPU", &backend, 0)) try_change(st, [&] { s.set_backend(Backend::Cpu); });
  ImGui::SameLine();
  if (!s.device().cuda) ImGui::BeginDisabled();
  if (ImGui::RadioButton("CUDA", &backend, 1)) try_change(st, [&] { s.set_backend(Backend::Cuda); });
  if (!s.device().cuda) {
    ImGui::EndDisabled();
    help_marker("The CPU backend is in use: " + s.device().unavailable_reason);
  }

  const std::string variant = s.effective_variant();
  const std::string variant_label = s.variant().empty() ? variant + " (default)" : variant;
  if (ImGui::BeginCombo("variant", variant_label.c_str())) {
    for (const auto& v : s.kernel().variants) {
      if (v.backend != s.backend()) continue;
      const auto why = s.kernel().unavailable_reason(v.name, s.params());
      if (why) ImGui::BeginDisabled();
      if (ImGui::Selectable(v.name.c_str(), v.name == variant)) try_change(st, [&] { s.set_variant(v.name); });
      if (why) ImGui::EndDisabled();
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))  // left of the list, as the kernels'
        wrapped_tooltip(why ? *why : v.help, ImGui::GetWindowPos().x - ImGui::GetStyle().ItemSpacing.x);
    }
    ImGui::EndCombo();
  }

  if (s.has_input() && !s.simulating() && !s.in_lab()) {  // simulations and the lab have their own types
    const ElemType type = s.element_type();
    if (ImGui::BeginCombo("type", type_label(type))) {
      for (ElemType t : {ElemType::U8, ElemType::F32})
        if (ImGui::Selectable(type_label(t), t == type) && t != type)
          try_change(st, [&] { s.set_element_type(t); });
      ImGui::EndCombo();
    }
    help_marker("The element type the kernel runs on. u8 saturates negative results (Sobel dx, Laplacian) to 0; "
                "f32 keeps their sign.");
  }

  ImGui::Separator();
  // s.kernel(), not spec: the combo above may have changed the kernel in this very frame.
  for (const auto& p : s.kernel().params) param_widget(s, st, p);
  if (ImGui::SmallButton("Defaults")) try_change(st, [&] { s.reset_params(); });
  if (!s.simulating() && !s.in_lab()) {  // a simulation runs on by itself; the lab runs from its Run
    ImGui::SameLine();
    if (ImGui::SmallButton("Run again")) s.request_run();
  }

  if (!st.error.empty() && !s.in_lab()) error_text(st.error);  // the Lab section shows the lab's
  if (s.last_error()) error_text("Last run failed: " + s.last_error()->full_message());
}

}  // namespace ks::ui::panels
