#pragma once
// Dear ImGui (Debian's 1.86) on GL 3.3 core: owns an ImGui context and its OpenGL3 backend, and runs one frame at a
// time. Qt-free: the Qt viewport feeds io() from its events (mouse, wheel, keys, text) and calls the frame
// functions inside paintGL; the headless path calls them inside an EGL context with no input at all.
// Construct, use and destroy with the same GL context current.
#include <string>

struct ImFont;
struct ImGuiContext;
struct ImGuiIO;

namespace ks::ui {

// How the panels look: text size and theme (View > Text size, High-contrast theme; presenter view for a class).
struct Appearance {
  static constexpr float kMinFontSize = 13, kMaxFontSize = 32, kDefaultFontSize = 13;
  float font_size = kDefaultFontSize;  // in points: the atlas is built at size x device pixel ratio (sharp text)
  bool high_contrast = false;          // white on black, yellow accents: readable on a washed-out projector
  bool operator==(const Appearance&) const = default;
};
// Usage Error for a text size outside kMinFontSize .. kMaxFontSize.
void check_appearance(const Appearance& a);

// The TrueType font of the panels: DejaVu Sans from Debian's fonts-dejavu-core, which scales cleanly from 13 to
// 32 px (ImGui's built-in bitmap font is only made for 13). Where the file is missing, the built-in font stands in.
inline constexpr const char* kPanelFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
// Code (the Source section) is set in a monospaced font: ImGui's built-in bitmap font, which is monospaced and
// made for 13 pixels, at 13 points on a 1:1 screen (crisp there); DejaVu Sans Mono at other sizes and on HiDPI.
inline constexpr const char* kCodeFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

// The monospaced font for code, between ImGuiLayer::begin_frame and end_frame_and_render (the current one where
// there is none).
ImFont* code_font();

class ImGuiLayer {
 public:
  struct Options {
    Appearance appearance;
    // ImGui's own imgui.ini beside the executable: off, the app keeps panel state in its settings instead.
    bool ini_file = false;
  };
  explicit ImGuiLayer(Options options);
  ImGuiLayer() : ImGuiLayer(Options{}) {}
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;

  // Takes effect at the next begin_frame (fonts are rebuilt there); sizes outside 13..32 are a usage Error.
  void set_appearance(const Appearance& appearance);
  const Appearance& appearance() const noexcept { return options_.appearance; }
  // "DejaVu Sans" or "ImGui's built-in font (fonts-dejavu-core is not installed)": what the panels are drawn with.
  const std::string& font_name() const noexcept { return font_name_; }

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
  void apply_style();

  Options options_;
  ImGuiContext* context_ = nullptr;
  float font_ratio_ = 0;  // the device pixel ratio the font atlas was built for (0: rebuild at the next frame)
  std::string font_name_;
};

}  // namespace ks::ui
