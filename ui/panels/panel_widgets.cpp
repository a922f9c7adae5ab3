#include <imgui.h>

#include <algorithm>

#include "core/error.hpp"
#include "panels/panel_sections.hpp"
#include "panels/window_words.hpp"

namespace ks::ui::panels {

bool try_change(PanelState& state, const std::function<void()>& change) {
  try {
    change();
    state.error.clear();
    return true;
  } catch (const Error& e) {
    state.error = e.full_message();
    return false;
  }
}

void table_row(const char* name, const std::string& value, const char* help) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextUnformatted(name);
  if (help && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextUnformatted(value.c_str());
}

bool named_button(NamedButtons& buttons, const char* label, float width) {
  const bool pressed = ImGui::Button(label, ImVec2(width, 0));
  if (buttons.scroll_to == label) {
    ImGui::SetScrollHereY(0.5f);
    buttons.scroll_to.clear();
  }
  if (ImGui::IsItemVisible()) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    buttons.rects[label] = {a.x, a.y, b.x, b.y};
  } else {
    buttons.rects.erase(label);
  }
  return pressed;
}

void wrapped_tooltip(const std::string& text, float beside_x) {
  if (beside_x >= 0)
    ImGui::SetNextWindowPos(ImVec2(beside_x, ImGui::GetItemRectMin().y), ImGuiCond_Always, ImVec2(1, 0));
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void help_marker(const std::string& text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) wrapped_tooltip(text);
}

namespace {

// Wrapped at spaces only, to the width left in the window (ImGui's TextWrapped also breaks after '.').
void text_wrapped_at_spaces(const std::string& text) {
  const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 8);
  const std::string lines = wrapped_at_spaces(
      text, width, [](const std::string& piece) { return ImGui::CalcTextSize(piece.c_str()).x; });
  ImGui::TextUnformatted(lines.c_str());
}

}  // namespace

void error_text(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
  text_wrapped_at_spaces(in_window_words(text));
  ImGui::PopStyleColor();
}

void wrapped_text(const std::string& text) {
  text_wrapped_at_spaces(text);
}

void warning_text(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.3f, 1.0f));
  text_wrapped_at_spaces(text);
  ImGui::PopStyleColor();
}

void note_text(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped_at_spaces(text);
  ImGui::PopStyleColor();
}

}  // namespace ks::ui::panels
