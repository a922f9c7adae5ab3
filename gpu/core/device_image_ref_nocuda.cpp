// Built only without the CUDA backend: no device image can exist, so these only keep callers linking.
#include "core/device_image_ref.hpp"
#include "core/no_cuda.hpp"

namespace ks {

Image download_device_image(const DeviceImageRef&) { throw_no_cuda("so there is no device image"); }
std::array<double, 4> read_device_pixel(const DeviceImageRef&, int, int) { throw_no_cuda("so there is no device image"); }

}  // namespace ks
