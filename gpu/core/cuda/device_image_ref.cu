#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "core/cuda/check.cuh"
#include "core/device_image_ref.hpp"
#include "core/pixel_values.hpp"

namespace ks {

namespace {

void check_ref(const DeviceImageRef& ref) {
  if (!ref) throw Error(ErrorKind::Internal, "no device image to copy from");
  if (ref.pitch < ref.shape.row_bytes())
    throw Error(ErrorKind::Internal, "device image pitch " + std::to_string(ref.pitch) + " is shorter than its rows (" +
                                         std::to_string(ref.shape.row_bytes()) + " bytes)");
}

}  // namespace

Image download_device_image(const DeviceImageRef& ref) {
  check_ref(ref);
  Image out(ref.shape);
  cuda::check(cudaSetDevice(ref.device), "cudaSetDevice");
  cuda::check(cudaMemcpy2D(out.data(), ref.shape.row_bytes(), ref.data, ref.pitch, ref.shape.row_bytes(),
                           std::size_t(ref.shape.height), cudaMemcpyDeviceToHost),
              "cudaMemcpy2D (device image to host)");
  return out;
}

std::array<double, 4> read_device_pixel(const DeviceImageRef& ref, int x, int y) {
  check_ref(ref);
  check_pixel_inside(ref.shape, x, y);
  const std::size_t pixel_bytes = std::size_t(ref.shape.channels) * elem_size(ref.shape.type);
  unsigned char bytes[4 * sizeof(double)] = {};
  cuda::check(cudaSetDevice(ref.device), "cudaSetDevice");
  const auto* src = static_cast<const unsigned char*>(ref.data) + std::size_t(y) * ref.pitch + std::size_t(x) * pixel_bytes;
  cuda::check(cudaMemcpy(bytes, src, pixel_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (one pixel to host)");
  return pixel_values(ref.shape, bytes);
}

}  // namespace ks
