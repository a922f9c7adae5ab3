#pragma once
// A result that stayed on the GPU: a pitched device allocation, kept alive by `owner` as long as any copy of the
// reference exists. Declared without CUDA headers, so the engine can hand it to code that never includes CUDA (the
// session, the renderer), and the display can put it on screen through CUDA-GL interop without a host round trip.
// The functions below copy out of it; in a build without CUDA they throw a Device error (no reference can exist).
#include <array>
#include <cstddef>
#include <memory>

#include "core/image.hpp"

namespace ks {

struct DeviceImageRef {
  const void* data = nullptr;  // device pointer (CUDA device `device`, runtime API's primary context)
  std::size_t pitch = 0;       // bytes between row starts
  ImageShape shape;            // rows of shape.row_bytes() bytes; interleaved channels as in Image
  std::shared_ptr<const void> owner;  // frees the allocation when the last reference goes
  int device = 0;
  explicit operator bool() const noexcept { return data != nullptr; }
};

// The whole image on the host (cudaMemcpy2D). The display uses it where interop is unavailable.
Image download_device_image(const DeviceImageRef& ref);

// The channel values of one pixel, converted to double in the image's units (u8 0..255, f32 as stored); the pixel
// inspector reads a device-only result with it. x, y must lie inside the image (checked: a usage Error otherwise).
std::array<double, 4> read_device_pixel(const DeviceImageRef& ref, int x, int y);

}  // namespace ks
