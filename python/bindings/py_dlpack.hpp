#pragma once
// DLPack for device images (Debian's libdlpack-dev, when found: KS_HAVE_DLPACK): DeviceArray.__dlpack__ hands
// a result on the GPU to cupy.from_dlpack, torch.from_dlpack or jax.dlpack without a copy, and arrays that
// offer only
// __dlpack__ (no __cuda_array_interface__) go into ks.run the same way.
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "core/device_image_ref.hpp"

namespace ks::python {

// Whether `object` is a device array that only DLPack describes (and this build has DLPack).
bool is_dlpack_device_array(const pybind11::handle& object);

// The image a DLPack producer hands over, and what keeps it alive: the capsule's tensor, released (its
// deleter called) when the last copy of DeviceImageRef::owner goes. Usage Errors as device_image_of's.
DeviceImageRef dlpack_device_image(const pybind11::handle& object, const std::string& argument);

// A DLPack capsule ("dltensor") over `image`, which it keeps alive until the consumer calls the deleter.
pybind11::capsule to_dlpack(const DeviceImageRef& image, bool two_d);

}  // namespace ks::python
