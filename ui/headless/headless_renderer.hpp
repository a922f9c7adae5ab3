#pragma once
// Everything a frame needs without a display, owned in the order GL requires (the EGL context is made first and
// destroyed last): an EGL context, an offscreen framebuffer, the image renderer and the ImGui layer. The same
// FrameRenderer and ImGuiLayer the Qt viewport uses, so a headless frame is the window's frame.
#include <functional>
#include <utility>

#include "core/image.hpp"
#include "headless/egl_context.hpp"
#include "headless/offscreen_target.hpp"
#include "imgui/imgui_layer.hpp"
#include "imgui/legend.hpp"
#include "render/frame_renderer.hpp"

namespace ks::ui {

class HeadlessRenderer {
 public:
  // Throws a Device error when no headless GL context can be made, a usage Error for an impossible size.
  HeadlessRenderer(int width, int height, EglContext::Options egl = {}, FrameRenderer::Options renderer = {});

  EglContext& egl() noexcept { return egl_; }
  FrameRenderer& renderer() noexcept { return renderer_; }
  ImGuiLayer& imgui() noexcept { return imgui_; }
  int width() const noexcept { return target_.width(); }
  int height() const noexcept { return target_.height(); }

  // Draws the image layer and an ImGui frame (the legend, then `draw_ui` when given: the panels) `frames` times,
  // and returns the last frame, RGBA8, top row first. Several frames because ImGui sizes a new window over its
  // first frames (it hides auto-sized windows on the frame they appear).
  Image render(const ViewState& view, const std::function<void()>& draw_ui = {}, int frames = 3);
  // Drawn on each frame before the legend (so under it and the panels): the launch overlay.
  void set_image_overlay(std::function<void()> draw) { image_overlay_ = std::move(draw); }
  // Where the legend goes (its free_width: the area the sidebar leaves), and where it went.
  LegendPlacement& legend() noexcept { return legend_; }

 private:
  EglContext egl_;
  OffscreenTarget target_;
  FrameRenderer renderer_;
  ImGuiLayer imgui_;
  std::function<void()> image_overlay_;
  LegendPlacement legend_;
};

}  // namespace ks::ui
