#include "headless/egl_context.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "render/gl/gl_api.hpp"

namespace ks::ui {

namespace {

const char* const kInstallHint =
    "install Mesa's EGL (Debian: libegl1 libegl-mesa0 libgl1-mesa-dri) or the NVIDIA driver's EGL library";

bool has_extension(const char* list, std::string_view name) {
  if (!list) return false;
  for (std::string_view rest(list); !rest.empty();) {
    const std::size_t end = rest.find(' ');
    if (rest.substr(0, end) == name) return true;
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return false;
}

std::string egl_error_text(EGLint code) {
  switch (code) {
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    default: return "EGL error " + std::to_string(code);
  }
}

template <class F>
F egl_function(const char* name) {
  return reinterpret_cast<F>(eglGetProcAddress(name));
}

// The NVIDIA device to render on: the one that is CUDA device `cuda_device`, else the first NVIDIA one.
EGLDeviceEXT find_nvidia_device(int cuda_device) {
  auto query_devices = egl_function<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
  auto query_string = egl_function<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
  auto query_attrib = egl_function<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
  if (!query_devices || !query_string) return EGL_NO_DEVICE_EXT;
  EGLint count = 0;
  if (!query_devices(0, nullptr, &count) || count <= 0) return EGL_NO_DEVICE_EXT;
  std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(count));
  if (!query_devices(count, devices.data(), &count)) return EGL_NO_DEVICE_EXT;
  EGLDeviceEXT first = EGL_NO_DEVICE_EXT;
  for (EGLDeviceEXT device : devices) {
    if (!has_extension(query_string(device, EGL_EXTENSIONS), "EGL_NV_device_cuda")) continue;
    EGLAttrib index = -1;
    if (query_attrib && query_attrib(device, EGL_CUDA_DEVICE_NV, &index) && index == cuda_device) return device;
    if (first == EGL_NO_DEVICE_EXT) first = device;
  }
  return first;
}

}  // namespace

struct EglContext::Impl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  std::string platform;
  std::string renderer;

  ~Impl() {
    if (display == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    eglTerminate(display);
    eglReleaseThread();
  }

  // Initialises `d` and makes a GL core context current on it; false (with `why`) when it cannot.
  bool start(EGLDisplay d, const Options& options, std::string& why) {
    EGLint major = 0, minor = 0;
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, &major, &minor)) {
      why = "eglInitialize failed (" + egl_error_text(eglGetError()) + ")";
      return false;
    }
    display = d;
    if (!eglBindAPI(EGL_OPENGL_API)) {
      why = "this EGL has no desktop OpenGL (eglBindAPI)";
      return false;
    }
    const char* extensions = eglQueryString(d, EGL_EXTENSIONS);
    if (!has_extension(extensions, "EGL_KHR_surfaceless_context")) {
      why = "this EGL display cannot make a context current without a surface (EGL_KHR_surfaceless_context)";
      return false;
    }
    // A config only when the display needs one (EGL_KHR_no_config_context lets us skip it).
    EGLConfig config = EGL_NO_CONFIG_KHR;
    if (!has_extension(extensions, "EGL_KHR_no_config_context")) {
      const EGLint wanted[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
      EGLint n = 0;
      if (!eglChooseConfig(d, wanted, &config, 1, &n) || n < 1) {
        why = "no EGL config renders desktop OpenGL";
        return false;
      }
    }
    const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, options.gl_major, EGL_CONTEXT_MINOR_VERSION,
                                 options.gl_minor, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                 EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context = eglCreateContext(d, config, EGL_NO_CONTEXT, attributes);
    if (context == EGL_NO_CONTEXT) {
      why = "no GL " + std::to_string(options.gl_major) + "." + std::to_string(options.gl_minor) +
            " core context (" + egl_error_text(eglGetError()) + ")";
      return false;
    }
    if (!eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      why = "eglMakeCurrent failed (" + egl_error_text(eglGetError()) + ")";
      return false;
    }
    renderer = gl::renderer_name();
    return true;
  }

  void reset() {
    Impl empty;
    std::swap(display, empty.display);
    std::swap(context, empty.context);
  }
};

EglContext::EglContext(Options options) : impl_(std::make_unique<Impl>()) {
  const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  auto get_display = egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
  if (!client_extensions || !get_display)
    throw Error(ErrorKind::Device, "EGL cannot open a display without a window system (no EGL_EXT_platform_base)",
                kInstallHint);
  std::string tried;
  if (options.platform != Platform::MesaSurfaceless) {
    std::string why = "no NVIDIA GPU with EGL_NV_device_cuda";
    if (has_extension(client_extensions, "EGL_EXT_platform_device")) {
      if (EGLDeviceEXT device = find_nvidia_device(options.cuda_device); device != EGL_NO_DEVICE_EXT) {
        if (impl_->start(get_display(EGL_PLATFORM_DEVICE_EXT, device, nullptr), options, why)) {
          impl_->platform = "NVIDIA EGL device";
          return;
        }
        impl_->reset();
      }
    } else {
      why = "no EGL_EXT_platform_device";
    }
    tried = "NVIDIA EGL device: " + why;
  }
  if (options.platform != Platform::NvidiaDevice) {
    std::string why = "no EGL_MESA_platform_surfaceless";
    if (has_extension(client_extensions, "EGL_MESA_platform_surfaceless")) {
      if (impl_->start(get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr), options, why)) {
        impl_->platform = "Mesa surfaceless";
        return;
      }
      impl_->reset();
    }
    tried += (tried.empty() ? "" : "; ") + std::string("Mesa surfaceless: ") + why;
  }
  throw Error(ErrorKind::Device, "no headless OpenGL context could be made: " + tried, kInstallHint);
}

EglContext::~EglContext() = default;

const std::string& EglContext::platform_name() const noexcept { return impl_->platform; }
const std::string& EglContext::gl_renderer() const noexcept { return impl_->renderer; }

EglContext::Platform egl_platform_from_environment() {
  const char* value = std::getenv("KS_EGL_PLATFORM");
  if (!value || !*value) return EglContext::Platform::Auto;
  if (std::strcmp(value, "nvidia") == 0) return EglContext::Platform::NvidiaDevice;
  if (std::strcmp(value, "mesa") == 0) return EglContext::Platform::MesaSurfaceless;
  throw_usage(std::string("KS_EGL_PLATFORM=") + value + " is not a platform", "use nvidia, mesa, or leave it unset");
}

}  // namespace ks::ui
