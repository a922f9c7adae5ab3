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
// The caption's text and notes take at most this share of the window's height where a smaller scale allows: with a
// presenter's text size in a narrow free area, twice the text size wrapped into more lines than the image area
// holds and covered the step list.
constexpr float kMaxCaptionShare = 0.4f;
constexpr float kMinCaptionScale = 1.0f, kCaptionScaleStep = 0.2f;
constexpr float kMinListLines = 3;  // the step list keeps room for this many lines, scrolling the rest
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
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s  -  %s", player.playlist().title.c_str(), where.c_str());
  float scale = kCaptionScale;
  if (step && !step->caption.empty()) {
    // The largest scale, from twice the text size down to the text size, at which the caption fits its share.
    const float wrap = width - 2 * ImGui::GetStyle().WindowPadding.x;
    auto height_at = [&](float caption_scale) {  // the caption and the notes under it
      ImGui::SetWindowFontScale(caption_scale);
      float h = ImGui::CalcTextSize(step->caption.c_str(), nullptr, false, wrap).y;
      ImGui::SetWindowFontScale(std::min(kNoteScale, caption_scale));
      for (const std::string& note : player.notes()) h += ImGui::CalcTextSize(note.c_str(), nullptr, false, wrap).y;
      return h;
    };
    for (; scale > kMinCaptionScale; scale -= kCaptionScaleStep)
      if (height_at(scale) <= kMaxCaptionShare * io.DisplaySize.y) break;
    scale = std::max(scale, kMinCaptionScale);
    ImGui::SetWindowFontScale(scale);
    ImGui::TextUnformatted(step->caption.c_str());
  }
  ImGui::SetWindowFontScale(std::min(kNoteScale, scale));  // notes no larger than the caption they follow
  for (const std::string& note : player.notes())
    ImGui::TextColored(step && !step->ok() ? kBad : kNote, "%s", note.c_str());
  ImGui::SetWindowFontScale(1.0f);
  ImGui::PopTextWrapPos();
  const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  ImGui::End();
  return {at.x, at.y, at.x + size.x, at.y + size.y};
}

// Above the caption (`caption_top`) and left of the sidebar: a longer list scrolls, keeping the current step in view.
std::optional<int> draw_step_list(const app::PlaylistPlayer& player, float sidebar_width, float caption_top,
                                  std::array<float, 4>& rect) {
  std::optional<int> clicked;
  const ImGuiIO& io = ImGui::GetIO();
  const float min_height = kMinListLines * ImGui::GetTextLineHeightWithSpacing() + 2 * ImGui::GetFrameHeight();
  const float max_width = std::max(200.0f, io.DisplaySize.x - sidebar_width - 2 * kMargin);
  const float max_height = std::max(min_height, caption_top - 2 * kMargin);
  ImGui::SetNextWindowPos(ImVec2(kMargin, kMargin), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(max_width, max_height));
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("Playlist###playlist-steps", nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
  // The step last scrolled to, kept with the window: scroll to the current one only when it changes.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID scrolled_to = ImGui::GetID("scrolled-to");
  const bool follow = storage->GetInt(scrolled_to, -1) != player.current();
  storage->SetInt(scrolled_to, player.current());
  for (const app::PlaylistStep& s : player.playlist().steps) {
    const bool current = s.number - 1 == player.current();
    const std::string line = (current ? "> " : "  ") + std::to_string(s.number) + ". " + s.label;
    if (!s.ok() || current) ImGui::PushStyleColor(ImGuiCol_Text, s.ok() ? kCurrent : kBad);
    if (ImGui::Selectable(line.c_str(), false)) clicked = s.number - 1;
    if (current && follow) ImGui::SetScrollHereY();
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
  // The caption first: the list stands above it.
  drawn.caption = draw_caption(player, sidebar_width);
  drawn.clicked = draw_step_list(player, sidebar_width, drawn.caption[1], drawn.list);
  return drawn;
}

}  // namespace ks::ui
