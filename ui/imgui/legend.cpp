#include "imgui/legend.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "session/display_frame.hpp"
#include "render/frame_renderer.hpp"
#include "render/overlay_rows.hpp"
#include "render/value_range.hpp"
#include "render/view_math.hpp"

namespace ks::ui {

namespace {

struct Box {
  float x0, y0, x1, y1;
  float overlap(const Box& o) const {
    return std::max(0.0f, std::min(x1, o.x1) - std::max(x0, o.x0)) * std::max(0.0f, std::min(y1, o.y1) - std::max(y0, o.y0));
  }
};

// The image's rectangle on screen, in logical pixels (what ImGui draws in).
Box image_box(const FrameRenderer& renderer, const ViewState& view) {
  const ImGuiIO& io = ImGui::GetIO();
  const float scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0f;
  const Size2 framebuffer{int(io.DisplaySize.x * scale + 0.5f), int(io.DisplaySize.y * scale + 0.5f)};
  const ImageShape shape = renderer.shown_shape();
  const Vec2 a = image_to_screen(view, framebuffer, {0, 0});
  const Vec2 b = image_to_screen(view, framebuffer, {double(shape.width), double(shape.height)});
  return {float(a.x) / scale, float(a.y) / scale, float(b.x) / scale, float(b.y) / scale};
}

// The first corner of the free area where the legend covers none of the image, else where it covers least.
LegendPlacement::Point own_place(ImVec2 size, float free_width, const Box& image) {
  constexpr float margin = 8;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float right = (free_width > 0 ? free_width : display.x) - margin - size.x;
  const float bottom = display.y - margin - size.y;
  const LegendPlacement::Point corners[] = {{margin, margin}, {right, margin}, {right, bottom}, {margin, bottom}};
  LegendPlacement::Point best = corners[0];
  float least = -1;
  for (const auto& c : corners) {
    const float covered = Box{c.x, c.y, c.x + size.x, c.y + size.y}.overlap(image);
    if (least < 0 || covered < least) least = covered, best = c;
  }
  return best;
}

}  // namespace

void draw_legend(const FrameRenderer& renderer, const ViewState& view, LegendPlacement& place) {
  place.drawn = false;
  if (!view.show_legend) return;
  const ImageShape shape = renderer.shown_shape();
  if (shape.channels != 1 && shape.channels != 2) return;
  const ValueRange range =
      renderer.has_output() ? ValueRange{view.range_min, view.range_max} : natural_range(shape.type);

  // One line: "viridis output  0 [bar] 255". Low, so that it fits in the margin a fitted image leaves.
  const ImGuiIO& io = ImGui::GetIO();
  const float pad = 6, bar_w = 160, gap = 6;
  const float text_h = ImGui::GetTextLineHeight();
  const std::string title = std::string(colormap_name(view.colormap)) + (renderer.has_output() ? " output" : " input");
  const std::string lo = fmt::format("{:.4g}", range.min), hi = fmt::format("{:.4g}", range.max);
  const float title_w = ImGui::CalcTextSize(title.c_str()).x, lo_w = ImGui::CalcTextSize(lo.c_str()).x;
  const float hi_w = ImGui::CalcTextSize(hi.c_str()).x;
  const ImVec2 size(2 * pad + title_w + 2 * gap + lo_w + gap + bar_w + gap + hi_w, 2 * pad + text_h);
  if (size.x > io.DisplaySize.x / 2 || size.y > io.DisplaySize.y / 4) return;  // too small a viewport: the image

  LegendPlacement::Point at = place.moved ? *place.moved : own_place(size, place.free_width, image_box(renderer, view));
  // A window made smaller since it was dragged: it comes back into view.
  at.x = std::clamp(at.x, 0.0f, std::max(0.0f, io.DisplaySize.x - size.x));
  at.y = std::clamp(at.y, 0.0f, std::max(0.0f, io.DisplaySize.y - size.y));
  ImGui::SetNextWindowPos(ImVec2(at.x, at.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
  ImGui::Begin("##legend", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoMove);
  ImGui::InvisibleButton("##drag", size);
  if (ImGui::IsItemActive() && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0))
    place.moved = LegendPlacement::Point{at.x + io.MouseDelta.x, at.y + io.MouseDelta.y};
  if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) place.moved.reset();
  if (ImGui::IsItemHovered() && !ImGui::IsItemActive())
    ImGui::SetTooltip("Drag to move the legend; double-click puts it back in its own place");

  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 box_min(at.x, at.y), box_max(at.x + size.x, at.y + size.y);
  draw->AddRectFilled(box_min, box_max, IM_COL32(20, 20, 24, 210), 4.0f);
  const ImU32 text = IM_COL32(230, 230, 230, 255);
  float x = box_min.x + pad;
  const float y = box_min.y + pad;
  draw->AddText(ImVec2(x, y), text, title.c_str());
  x += title_w + 2 * gap;
  draw->AddText(ImVec2(x, y), text, lo.c_str());
  x += lo_w + gap;
  const float bar_h = std::max(8.0f, text_h * 0.7f);
  const ImVec2 bar_min(x, y + (text_h - bar_h) / 2), bar_max(x + bar_w, y + (text_h + bar_h) / 2);
  const auto texture = reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(renderer.colormap_texture(view.colormap)));
  // Texel centres of the first and last entries, so the bar's ends are exactly the colours of range min and max.
  draw->AddImage(texture, bar_min, bar_max, ImVec2(0.5f / 256, 0.5f), ImVec2(255.5f / 256, 0.5f));
  draw->AddRect(bar_min, bar_max, IM_COL32(200, 200, 200, 255));
  draw->AddText(ImVec2(bar_max.x + gap, y), text, hi.c_str());
  ImGui::End();
  ImGui::PopStyleVar(3);
  place.shown = at;
  place.drawn = true;
}

SplitLabelBoxes draw_split_labels(const FrameRenderer& renderer, const ViewState& view) {
  // Only where the split is drawn: a simulation's grid has no separate input to compare with.
  if (!view.split || !renderer.has_output() || !renderer.has_input()) return {};
  const ImGuiIO& io = ImGui::GetIO();
  const float scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0f;
  const Size2 framebuffer{int(io.DisplaySize.x * scale + 0.5f),
                          int(io.DisplaySize.y * io.DisplayFramebufferScale.y + 0.5f)};
  const float x = float(split_screen_x(view, framebuffer)) / scale;  // logical pixels, as ImGui draws
  // Near the top, below the legend's own place (top left, one line high), clear of the inspector and job box
  // (bottom left).
  const float pad = kSplitLabelPad, top = split_labels_top(ImGui::GetTextLineHeight());
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  auto label = [&](const char* text, bool left_of_line) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    const float x0 = left_of_line ? x - size.x - 3 * pad : x + 2 * pad;
    const ImVec2 box_min(x0 - pad, top - pad), box_max(x0 + size.x + pad, top + size.y + pad);
    draw->AddRectFilled(box_min, box_max, IM_COL32(20, 20, 24, 200), 3.0f);
    draw->AddText(ImVec2(x0, top), IM_COL32(230, 230, 230, 255), text);
    return std::array<float, 4>{box_min.x, box_min.y, box_max.x, box_max.y};
  };
  SplitLabelBoxes boxes;
  boxes.input = label("input", true);
  boxes.output = label("output", false);
  return boxes;
}

}  // namespace ks::ui
