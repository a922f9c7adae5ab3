#pragma once
// The GLSL files of shaders/, embedded at build time (ui/CMakeLists.txt, cmake/EmbedFile.cmake): the renderer needs
// no files at run time, and a shader edit rebuilds the program.
#include <span>
#include <string_view>

namespace ks::embedded {
std::span<const unsigned char> shader_image_vert();  // shaders/image.vert
std::span<const unsigned char> shader_image_frag();  // shaders/image.frag
}  // namespace ks::embedded

namespace ks::ui {
inline std::string_view as_text(std::span<const unsigned char> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}
}  // namespace ks::ui
