#include "imgui/imgui_layer.hpp"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>

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
  ImGui::StyleColorsDark();
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

void ImGuiLayer::rebuild_fonts(float device_pixel_ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.SizePixels = options_.font_size * device_pixel_ratio;
  io.Fonts->AddFontDefault(&config);
  io.FontGlobalScale = 1.0f / device_pixel_ratio;  // laid out in points, rasterised in framebuffer pixels
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  font_ratio_ = device_pixel_ratio;
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
