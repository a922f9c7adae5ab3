#pragma once
// RAII owners of GL object names. Each needs the GL context that created it to be current when it is created and
// when it is destroyed: owners (FrameRenderer, ImGuiLayer, OffscreenTarget) are destroyed while their context is
// current (in Qt: QOpenGLWidget's destructor calls makeCurrent() first; headless: before the EglContext goes).
#include <utility>

#include "render/gl/gl_api.hpp"

namespace ks::ui::gl {

template <class Traits>
class Object {
 public:
  Object() : id_(Traits::create()) {}
  ~Object() {
    if (id_) Traits::destroy(id_);
  }
  Object(Object&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  Object& operator=(Object&& o) noexcept {
    if (this != &o) {
      if (id_) Traits::destroy(id_);
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  GLuint id() const noexcept { return id_; }

 private:
  GLuint id_ = 0;
};

struct TextureTraits {
  static GLuint create() { GLuint id = 0; glGenTextures(1, &id); return id; }
  static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct VertexArrayTraits {
  static GLuint create() { GLuint id = 0; glGenVertexArrays(1, &id); return id; }
  static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct FramebufferTraits {
  static GLuint create() { GLuint id = 0; glGenFramebuffers(1, &id); return id; }
  static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct RenderbufferTraits {
  static GLuint create() { GLuint id = 0; glGenRenderbuffers(1, &id); return id; }
  static void destroy(GLuint id) { glDeleteRenderbuffers(1, &id); }
};
struct SamplerTraits {
  static GLuint create() { GLuint id = 0; glGenSamplers(1, &id); return id; }
  static void destroy(GLuint id) { glDeleteSamplers(1, &id); }
};
struct ProgramTraits {
  static GLuint create() { return glCreateProgram(); }
  static void destroy(GLuint id) { glDeleteProgram(id); }
};

using Texture = Object<TextureTraits>;
using VertexArray = Object<VertexArrayTraits>;
using Framebuffer = Object<FramebufferTraits>;
using Renderbuffer = Object<RenderbufferTraits>;
using Sampler = Object<SamplerTraits>;
using Program = Object<ProgramTraits>;

}  // namespace ks::ui::gl
