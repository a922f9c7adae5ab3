#include "imgui/imgui_layer.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "core/error.hpp"

namespace ks::ui {

ImGuiLayer::ImGuiLayer(Options options) : options_(options) {
  IMGUI_CHECKVERSION();
  ImGuiContext* previous = ImGui::GetCurrentContext();
  context_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  if (!options_.ini_file) io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // no pointer until the host says where it is
  set_appearance(options_.appearance);  // checks it; the style now, the fonts at the first frame
  // GLSL 3.30 matches the GL 3.3 core contexts of the viewport and of EGL (the backend defaults to 1.30).
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    ImGui::DestroyContext(context_);
    ImGui::SetCurrentContext(previous);
    throw Error(ErrorKind::Device, "ImGui's OpenGL3 backend could not start (it loads GL through libGL.so.1)",
                "check that libgl1 (libglvnd) is installed and a GL 3.3 core context is current");
  }
}

ImGuiLayer::~ImGuiLayer() {
  ImGui::SetCurrentContext(context_);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext(context_);
}

ImGuiIO& ImGuiLayer::io() {
  ImGui::SetCurrentContext(context_);
  return ImGui::GetIO();
}

void check_appearance(const Appearance& a) {
  if (!(a.font_size >= Appearance::kMinFontSize && a.font_size <= Appearance::kMaxFontSize))
    throw_usage(fmt::format("text size {} is out of range", a.font_size),
                fmt::format("use {} to {} points", Appearance::kMinFontSize, Appearance::kMaxFontSize));
}

void ImGuiLayer::set_appearance(const Appearance& a) {
  check_appearance(a);
  const bool new_size = a.font_size != options_.appearance.font_size;
  options_.appearance = a;
  ImGui::SetCurrentContext(context_);
  apply_style();
  if (new_size) font_ratio_ = 0;
}

void ImGuiLayer::apply_style() {
  ImGuiStyle style;  // from ImGui's defaults, so that scaling never compounds
  if (options_.appearance.high_contrast) {
    ImGui::StyleColorsDark(&style);
    ImVec4* c = style.Colors;
    const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1), yellow(1.0f, 0.85f, 0.0f, 1), dim_yellow(0.55f, 0.45f, 0, 1);
    c[ImGuiCol_Text] = white;
    c[ImGuiCol_TextDisabled] = ImVec4(0.85f, 0.85f, 0.85f, 1);
    c[ImGuiCol_WindowBg] = c[ImGuiCol_ChildBg] = c[ImGuiCol_PopupBg] = black;
    c[ImGuiCol_Border] = white;
    c[ImGuiCol_FrameBg] = ImVec4(0.12f, 0.12f, 0.12f, 1);
    c[ImGuiCol_FrameBgHovered] = c[ImGuiCol_FrameBgActive] = dim_yellow;
    c[ImGuiCol_Header] = c[ImGuiCol_Button] = ImVec4(0.2f, 0.2f, 0.2f, 1);
    c[ImGuiCol_HeaderHovered] = c[ImGuiCol_ButtonHovered] = c[ImGuiCol_HeaderActive] = c[ImGuiCol_ButtonActive] =
        dim_yellow;
    c[ImGuiCol_CheckMark] = c[ImGuiCol_SliderGrab] = c[ImGuiCol_SliderGrabActive] = c[ImGuiCol_PlotLines] =
        c[ImGuiCol_PlotHistogram] = yellow;
    c[ImGuiCol_TitleBg] = c[ImGuiCol_TitleBgActive] = c[ImGuiCol_TitleBgCollapsed] = black;
    style.FrameBorderSize = 1.0f;
  } else {
    ImGui::StyleColorsDark(&style);
  }
  // Paddings and spacings grow with the text, or large text would sit cramped in 13-point boxes.
  style.ScaleAllSizes(options_.appearance.font_size / Appearance::kDefaultFontSize);
  ImGui::GetStyle() = style;
}

void ImGuiLayer::rebuild_fonts(float device_pixel_ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.SizePixels = options_.appearance.font_size * device_pixel_ratio;
  ImFont* font = nullptr;
  // Latin, Greek (sigma), and the punctuation, arrows and operators the panels' texts use (em dash, ≤, →).
  static const ImWchar kRanges[] = {0x0020, 0x017F, 0x0370, 0x03FF, 0x2000, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0};
  if (std::FILE* f = std::fopen(kPanelFontFile, "rb")) {  // AddFontFromFileTTF asserts on a missing file
    std::fclose(f);
    font = io.Fonts->AddFontFromFileTTF(kPanelFontFile, config.SizePixels, &config, kRanges);
  }
  if (font) {
    font_name_ = "DejaVu Sans";
  } else {
    io.Fonts->AddFontDefault(&config);
    font_name_ = "ImGui's built-in font (fonts-dejavu-core is not installed)";
  }
  // The second font of the atlas: code (code_font()).
  ImFont* code = nullptr;
  ImFontConfig code_config = config;
  if (config.SizePixels != Appearance::kDefaultFontSize) {
    if (std::FILE* f = std::fopen(kCodeFontFile, "rb")) {
      std::fclose(f);
      code = io.Fonts->AddFontFromFileTTF(kCodeFontFile, config.SizePixels, &code_config, kRanges);
    }
  }
  if (!code) io.Fonts->AddFontDefault(&code_config);
  io.FontGlobalScale = 1.0f / device_pixel_ratio;  // laid out in points, rasterised in framebuffer pixels
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  font_ratio_ = device_pixel_ratio;
}

ImFont* code_font() {
  const ImGuiIO& io = ImGui::GetIO();
  return io.Fonts->Fonts.Size > 1 ? io.Fonts->Fonts[1] : ImGui::GetFont();
}

void ImGuiLayer::begin_frame(float width, float height, float device_pixel_ratio, float dt) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  const float ratio = device_pixel_ratio > 0 ? device_pixel_ratio : 1.0f;
  ImGui_ImplOpenGL3_NewFrame();  // creates the backend's objects on the first frame
  if (ratio != font_ratio_) rebuild_fonts(ratio);
  io.DisplaySize = ImVec2(std::max(width, 1.0f), std::max(height, 1.0f));
  io.DisplayFramebufferScale = ImVec2(ratio, ratio);
  io.DeltaTime = dt > 0 ? dt : 1.0f / 60.0f;  // ImGui asserts on a zero step
  ImGui::NewFrame();
}

void ImGuiLayer::end_frame_and_render() {
  ImGui::SetCurrentContext(context_);
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void ImGuiLayer::recover_after_error() {
  ImGui::SetCurrentContext(context_);
  ImGui::ErrorCheckEndFrameRecover(nullptr);
}

}  // namespace ks::ui
