#include "headless/offscreen_target.hpp"

#include <string>

#include "core/error.hpp"

namespace ks::ui {

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (width < 1 || height < 1 || width > max_size || height > max_size)
    throw_usage("a frame of " + std::to_string(width) + "x" + std::to_string(height) + " cannot be rendered",
                "width and height must lie in 1.." + std::to_string(max_size) + " on this GL renderer");
  glBindRenderbuffer(GL_RENDERBUFFER, colour_.id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  gl::check("allocating the offscreen frame (glRenderbufferStorage)");
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_.id());
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw Error(ErrorKind::Device, "the offscreen framebuffer is incomplete (status 0x" + std::to_string(status) + ")",
                "the GL driver cannot render into an RGBA8 renderbuffer of this size");
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.id()); }

}  // namespace ks::ui
