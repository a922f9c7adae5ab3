// Built only without the CUDA backend: no device image can exist, so these only keep callers linking.
#include "core/device_image_ref.hpp"
#include "core/error.hpp"

namespace ks {

namespace {
[[noreturn]] void no_cuda() {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend, so there is no device image",
              "use --backend cpu");
}
}  // namespace

Image download_device_image(const DeviceImageRef&) { no_cuda(); }
std::array<double, 4> read_device_pixel(const DeviceImageRef&, int, int) { no_cuda(); }

}  // namespace ks
