#pragma once
// CUDA-GL interop for the display: a device result is copied straight into the GL textures that show it, without
// a trip through host memory. Declared without CUDA or GL headers (the renderer is plain C++); the implementation
// is interop_target.cu, or interop_target_nocuda.cpp in a build without CUDA, where every attempt says why not.
//
// Lifetime: register once per set of textures (a new image shape makes new textures, and so a new target), then
// for each new result: map, write, unmap. Every call runs on the GL thread with the GL context current.
#include <memory>
#include <string>
#include <vector>

#include "core/device_image_ref.hpp"
#include "render/tile_layout.hpp"

namespace ks::ui {

// How the mapped texture is written. ArrayCopy: cudaMemcpy2DToArrayAsync from the pitched result. SurfaceWrite:
// a kernel that reads the result and writes texels with surf2Dwrite (the form that could convert on the way).
enum class InteropWrite { ArrayCopy, SurfaceWrite };
const char* to_string(InteropWrite method) noexcept;

// Empty when the current GL context runs on CUDA device `cuda_device`, so that its textures can be registered;
// otherwise why not, in words ("this build has no CUDA backend", "the GL context runs on llvmpipe (Mesa), not on
// a CUDA device", ...). Asks cudaGLGetDevices: call with the GL context current.
std::string interop_unavailable_reason(int cuda_device);

class InteropTarget {
 public:
  struct TextureTile {
    unsigned texture = 0;  // GL texture name (GL_TEXTURE_2D, one level, 1, 2 or 4 channels)
    TileRect rect;         // the part of the image it holds
  };
  // Registers every tile with cudaGraphicsRegisterFlagsSurfaceLoadStore. Throws a Device error that names the
  // failing call and CUDA's words (the caller falls back to host uploads and shows the reason).
  InteropTarget(std::vector<TextureTile> tiles, int cuda_device);
  ~InteropTarget();  // unregisters
  InteropTarget(const InteropTarget&) = delete;
  InteropTarget& operator=(const InteropTarget&) = delete;

  // Maps every tile, writes the part of `src` it holds, unmaps, and waits for the copy to finish (so the caller's
  // clock measures the whole display step). `src` must have the shape the textures were made for.
  void write(const DeviceImageRef& src, InteropWrite method);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ks::ui
