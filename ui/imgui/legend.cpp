#include "imgui/legend.hpp"

#include <fmt/format.h>
#include <imgui.h>

#include <cstdint>
#include <string>

#include "session/display_frame.hpp"
#include "render/frame_renderer.hpp"
#include "render/value_range.hpp"
#include "render/view_math.hpp"

namespace ks::ui {

void draw_legend(const FrameRenderer& renderer, const ViewState& view) {
  if (!view.show_legend) return;
  const ImageShape shape = renderer.shown_shape();
  if (shape.channels != 1 && shape.channels != 2) return;
  const ValueRange range =
      renderer.has_output() ? ValueRange{view.range_min, view.range_max} : natural_range(shape.type);

  const ImGuiIO& io = ImGui::GetIO();
  const float bar_w = 200, bar_h = 12, pad = 8, margin = 12;
  const float text_h = ImGui::GetTextLineHeight();
  // Top left: the sidebar covers the right edge, the pixel inspector and the job indicator the bottom left.
  const ImVec2 box_min(margin, margin);
  const ImVec2 box_max(box_min.x + bar_w + 2 * pad, box_min.y + bar_h + 2 * text_h + 3 * pad);
  // A viewport too small for it: the image matters more.
  if (box_max.x > io.DisplaySize.x / 2 || box_max.y > io.DisplaySize.y / 2) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->AddRectFilled(box_min, box_max, IM_COL32(20, 20, 24, 210), 4.0f);

  const std::string title = std::string(colormap_name(view.colormap)) + (renderer.has_output() ? "  output" : "  input");
  draw->AddText(ImVec2(box_min.x + pad, box_min.y + pad), IM_COL32(230, 230, 230, 255), title.c_str());
  const ImVec2 bar_min(box_min.x + pad, box_min.y + 2 * pad + text_h);
  const ImVec2 bar_max(bar_min.x + bar_w, bar_min.y + bar_h);
  const auto texture = reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(renderer.colormap_texture(view.colormap)));
  // Texel centres of the first and last entries, so the bar's ends are exactly the colours of range min and max.
  draw->AddImage(texture, bar_min, bar_max, ImVec2(0.5f / 256, 0.5f), ImVec2(255.5f / 256, 0.5f));
  draw->AddRect(bar_min, bar_max, IM_COL32(200, 200, 200, 255));

  const float label_y = bar_max.y + pad / 2;
  auto label = [&](float value, float x_frac) {
    const std::string text = fmt::format("{:.4g}", value);
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    const float x = bar_min.x + x_frac * bar_w - x_frac * w;  // left end left-aligned, right end right-aligned
    draw->AddText(ImVec2(x, label_y), IM_COL32(230, 230, 230, 255), text.c_str());
  };
  label(range.min, 0.0f);
  label(0.5f * (range.min + range.max), 0.5f);
  label(range.max, 1.0f);
}

void draw_split_labels(const FrameRenderer& renderer, const ViewState& view) {
  if (!view.split || !renderer.has_output()) return;
  const ImGuiIO& io = ImGui::GetIO();
  const float scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0f;
  const Size2 framebuffer{int(io.DisplaySize.x * scale + 0.5f),
                          int(io.DisplaySize.y * io.DisplayFramebufferScale.y + 0.5f)};
  const float x = float(split_screen_x(view, framebuffer)) / scale;  // logical pixels, as ImGui draws
  // Near the top, below where the legend stands (top left), clear of the inspector and job box (bottom left).
  const float pad = 4, top = 24 + 3 * ImGui::GetTextLineHeight() + 24;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  auto label = [&](const char* text, bool left_of_line) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    const float x0 = left_of_line ? x - size.x - 3 * pad : x + 2 * pad;
    draw->AddRectFilled(ImVec2(x0 - pad, top - pad), ImVec2(x0 + size.x + pad, top + size.y + pad),
                        IM_COL32(20, 20, 24, 200), 3.0f);
    draw->AddText(ImVec2(x0, top), IM_COL32(230, 230, 230, 255), text);
  };
  label("input", true);
  label("output", false);
}

}  // namespace ks::ui
