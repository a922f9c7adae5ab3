#include "headless/headless_renderer.hpp"

#include <algorithm>

#include "imgui/legend.hpp"

namespace ks::ui {

HeadlessRenderer::HeadlessRenderer(int width, int height, EglContext::Options egl, FrameRenderer::Options renderer)
    : egl_(egl), target_(width, height), renderer_(renderer), imgui_() {}

Image HeadlessRenderer::render(const ViewState& view, const std::function<void()>& draw_ui, int frames) {
  const int w = target_.width(), h = target_.height();
  for (int i = 0; i < std::max(frames, 1); ++i) {
    target_.bind();
    renderer_.draw(w, h, view);
    imgui_.begin_frame(float(w), float(h), 1.0f, 1.0f / 60.0f);
    if (image_overlay_) image_overlay_();
    draw_legend(renderer_, view, legend_);
    draw_split_labels(renderer_, view);
    if (draw_ui) draw_ui();
    imgui_.end_frame_and_render();
  }
  target_.bind();
  return renderer_.read_pixels(w, h);
}

}  // namespace ks::ui
