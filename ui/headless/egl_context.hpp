#pragma once
// A desktop GL 3.3+ core context without any window or display server, for headless frames (--screenshot, tests).
// Platform choice: NVIDIA's EGL device platform when an NVIDIA GPU is there (eglQueryDevicesEXT, a device with
// EGL_NV_device_cuda, the one that is CUDA device `cuda_device` when it says), so CUDA-GL interop can work;
// otherwise Mesa's surfaceless platform (llvmpipe in CI, or a Mesa GPU driver). The context is current on the
// creating thread from construction to destruction; there is no default framebuffer (render into an
// OffscreenTarget). One EglContext at a time per process: destruction terminates the EGL display.
#include <memory>
#include <string>

namespace ks::ui {

class EglContext {
 public:
  enum class Platform { Auto, NvidiaDevice, MesaSurfaceless };
  struct Options {
    Platform platform = Platform::Auto;
    int cuda_device = 0;  // which NVIDIA GPU, when there are several
    int gl_major = 3, gl_minor = 3;
  };
  // Throws a Device error saying what is missing (no libEGL, no platform, no GL core context) and what to install.
  explicit EglContext(Options options);
  EglContext() : EglContext(Options{}) {}
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  // "NVIDIA EGL device" or "Mesa surfaceless"; GL_RENDERER of the context.
  const std::string& platform_name() const noexcept;
  const std::string& gl_renderer() const noexcept;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Environment override for tests and troubleshooting: KS_EGL_PLATFORM=nvidia|mesa (unset or empty: Auto).
// Throws a usage Error for other values.
EglContext::Platform egl_platform_from_environment();

}  // namespace ks::ui
