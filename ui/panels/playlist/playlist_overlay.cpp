#include "panels/playlist/playlist_overlay.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <string>

#include "session/playlist/playlist_player.hpp"

namespace ks::ui {

namespace {

constexpr float kMargin = 16.0f;
constexpr float kCaptionScale = 2.0f;  // the default font is 13 px: 26 px reads from the back of a room
constexpr float kNoteScale = 1.4f;
constexpr float kMaxCaptionWidth = 1400.0f;
const ImVec4 kCurrent(1.0f, 0.85f, 0.3f, 1.0f);
const ImVec4 kBad(1.0f, 0.35f, 0.35f, 1.0f);
const ImVec4 kNote(1.0f, 0.65f, 0.25f, 1.0f);

constexpr ImGuiWindowFlags kCaptionFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                           ImGuiWindowFlags_NoSavedSettings |
                                           ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                           ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;

// Returns the caption's rectangle.
std::array<float, 4> draw_caption(const app::PlaylistPlayer& player, float sidebar_width) {
  const app::PlaylistStep* step = player.current_step();
  const ImGuiIO& io = ImGui::GetIO();
  const float area = std::max(200.0f, io.DisplaySize.x - sidebar_width);
  const float width = std::min(area - 2 * kMargin, kMaxCaptionWidth);
  ImGui::SetNextWindowPos(ImVec2(area / 2, io.DisplaySize.y - kMargin), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, FLT_MAX));
  ImGui::SetNextWindowBgAlpha(0.82f);
  ImGui::Begin("##playlist-caption", nullptr, kCaptionFlags);
  const std::string where =
      step ? "step " + std::to_string(step->number) + " of " + std::to_string(player.step_count())
           : "press Space or Page Down to start";
  ImGui::TextDisabled("%s  -  %s", player.playlist().title.c_str(), where.c_str());
  ImGui::PushTextWrapPos(0.0f);
  if (step && !step->caption.empty()) {
    ImGui::SetWindowFontScale(kCaptionScale);
    ImGui::TextUnformatted(step->caption.c_str());
  }
  ImGui::SetWindowFontScale(kNoteScale);
  for (const std::string& note : player.notes())
    ImGui::TextColored(step && !step->ok() ? kBad : kNote, "%s", note.c_str());
  ImGui::SetWindowFontScale(1.0f);
  ImGui::PopTextWrapPos();
  const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  ImGui::End();
  return {at.x, at.y, at.x + size.x, at.y + size.y};
}

std::optional<int> draw_step_list(const app::PlaylistPlayer& player, std::array<float, 4>& rect) {
  std::optional<int> clicked;
  ImGui::SetNextWindowPos(ImVec2(kMargin, kMargin), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("Playlist###playlist-steps", nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
  for (const app::PlaylistStep& s : player.playlist().steps) {
    const bool current = s.number - 1 == player.current();
    const std::string line = (current ? "> " : "  ") + std::to_string(s.number) + ". " + s.label;
    if (!s.ok() || current) ImGui::PushStyleColor(ImGuiCol_Text, s.ok() ? kCurrent : kBad);
    if (ImGui::Selectable(line.c_str(), false)) clicked = s.number - 1;
    if (!s.ok() || current) ImGui::PopStyleColor();
    if (!s.ok() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", s.error.c_str());
  }
  ImGui::TextDisabled("Space / Page Down: next   Page Up: back   Esc: end");
  const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  rect = {at.x, at.y, at.x + size.x, at.y + size.y};
  ImGui::End();
  return clicked;
}

}  // namespace

PlaylistOverlayDrawn draw_playlist_overlay(const app::PlaylistPlayer& player, float sidebar_width) {
  PlaylistOverlayDrawn drawn;
  drawn.clicked = draw_step_list(player, drawn.list);
  drawn.caption = draw_caption(player, sidebar_width);
  return drawn;
}

}  // namespace ks::ui
