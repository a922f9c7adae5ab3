#pragma once
// Dear ImGui (Debian's 1.86) on GL 3.3 core: owns an ImGui context and its OpenGL3 backend, and runs one frame at a
// time. Qt-free: the Qt viewport feeds io() from its events (mouse, wheel, keys, text) and calls the frame
// functions inside paintGL; the headless path calls them inside an EGL context with no input at all.
// Construct, use and destroy with the same GL context current.
struct ImGuiContext;
struct ImGuiIO;

namespace ks::ui {

class ImGuiLayer {
 public:
  struct Options {
    float font_size = 13.0f;  // in points: the atlas is built at font_size x device pixel ratio, so text is sharp
    // ImGui's own imgui.ini beside the executable: off, the app keeps panel state in its settings instead.
    bool ini_file = false;
  };
  explicit ImGuiLayer(Options options);
  ImGuiLayer() : ImGuiLayer(Options{}) {}
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  // This layer's context, made current: ImGui's functions act on the current context.
  ImGuiIO& io();
  ImGuiContext* context() const noexcept { return context_; }

  // width, height: the viewport in logical pixels (Qt's points); device_pixel_ratio: framebuffer pixels per
  // logical pixel (HiDPI), so the framebuffer is width*dpr x height*dpr; dt: seconds since the last frame (> 0).
  void begin_frame(float width, float height, float device_pixel_ratio, float dt);
  // Ends the frame and draws it into the bound framebuffer, over whatever is there (the image).
  void end_frame_and_render();
  // After an exception escaped from the frame's widgets: ends the windows, ID scopes and groups they left open,
  // so that end_frame_and_render and the next frames work.
  void recover_after_error();

 private:
  void rebuild_fonts(float device_pixel_ratio);

  Options options_;
  ImGuiContext* context_ = nullptr;
  float font_ratio_ = 0;  // the device pixel ratio the font atlas was built for
};

}  // namespace ks::ui
