#pragma once
// Device arrays in and out of the module without a trip through the host (backend="cuda"): CuPy's and Numba's
// arrays through __cuda_array_interface__ (version 2 or 3) in; DeviceArray out, an image that stays on the GPU and
// offers the same interface, so cupy.asarray(result) and numba.cuda.as_cuda_array(result) take it in place.
#include <pybind11/pybind11.h>

#include <string>

#include "core/device_image_ref.hpp"

namespace ks::python {

// Whether `object` offers __cuda_array_interface__ (and is not a host array as well).
bool is_device_array(const pybind11::handle& object);

// The device image `object` describes: uint8 or float32, H×W, H×W×1 or H×W×4, rows packed (pitched rows are
// fine), not empty. Nothing is copied; the caller keeps `object` alive while the image is read. A usage Error
// naming `argument` and what is allowed otherwise.
DeviceImageRef device_image_of(const pybind11::handle& object, const std::string& argument);

// A result on the GPU, kept alive by the DeviceImageRef's owner while Python holds it.
struct DeviceArray {
  DeviceImageRef image;
  bool two_d = false;  // H×W rather than H×W×1
};

void bind_device_array(pybind11::module_& m);

}  // namespace ks::python
