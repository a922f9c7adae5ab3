#pragma once
// The GL 3.3 core API as plain prototypes, resolved at link time against libglvnd's libOpenGL.so.0 (CMake's
// OpenGL::OpenGL). libglvnd dispatches every call to whichever vendor owns the current context, whether that
// context was made current through EGL (headless frames, Mesa or NVIDIA) or through GLX/EGL inside Qt's
// QOpenGLWidget, so one build of the renderer serves both without a loader library or function-pointer tables.
// Include this header, never <GL/gl.h>, in renderer code.
// glcorearb.h declares prototypes only when asked (GL_GLEXT_PROTOTYPES since Khronos' 2017 headers).
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/glcorearb.h>

#include <string>

namespace ks::ui::gl {

// Throws a Device error naming `what` and the GL error code when glGetError reports one (and drains the queue).
void check(const char* what);

// GL_RENDERER / GL_VERSION of the current context ("llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA H100 ...").
std::string renderer_name();
std::string version_text();

}  // namespace ks::ui::gl
