#pragma once
// A framebuffer object of a given size with an RGBA8 colour buffer: where headless frames are drawn (an EGL
// context has no default framebuffer) and read back from. Needs its GL context current, like every GL owner here.
#include "render/gl/gl_objects.hpp"

namespace ks::ui {

class OffscreenTarget {
 public:
  // Throws a usage Error for sizes outside 1..GL_MAX_RENDERBUFFER_SIZE (naming the limit), a Device error when
  // the framebuffer is incomplete.
  OffscreenTarget(int width, int height);
  void bind() const;  // as the draw and read framebuffer
  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }

 private:
  int width_, height_;
  gl::Framebuffer framebuffer_;
  gl::Renderbuffer colour_;
};

}  // namespace ks::ui
