#include "render/gl/gl_api.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks::ui::gl {

namespace {
const char* error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
  }
}

std::string string_of(GLenum name) {
  const auto* s = reinterpret_cast<const char*>(glGetString(name));
  return s ? s : "";
}
}  // namespace

void check(const char* what) {
  const GLenum first = glGetError();
  if (first == GL_NO_ERROR) return;
  for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
  }
  const std::string msg = fmt::format("{} failed: {} (0x{:04x})", what, error_name(first), first);
  if (first == GL_OUT_OF_MEMORY)
    throw Error(ErrorKind::OutOfMemory, msg, "the image is too large for the GPU's display memory; open a smaller one");
  throw Error(ErrorKind::Device, msg, "the GL driver (" + renderer_name() + ", GL " + version_text() +
                                          ") refused the call; kernelscope needs GL 3.3 core");
}

std::string renderer_name() { return string_of(GL_RENDERER); }
std::string version_text() { return string_of(GL_VERSION); }

}  // namespace ks::ui::gl
