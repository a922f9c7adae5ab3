#pragma once
// Device arrays in and out of the module without a trip through the host (backend="cuda"): CuPy's and Numba's
// arrays through __cuda_array_interface__ (version 2 or 3) in; DeviceArray out, an image that stays on the
// GPU and offers the same interface, so cupy.asarray(result) and numba.cuda.as_cuda_array(result) take it in
// place.
#include <pybind11/pybind11.h>

#include <string>

#include "core/device_image_ref.hpp"

namespace ks::python {

// Whether `object` is an array on the GPU: __cuda_array_interface__ (and not a host array as well), or a
// DLPack producer whose device is CUDA (py_dlpack.hpp).
bool is_device_array(const pybind11::handle& object);

// The device image `object` describes: uint8 or float32, H×W, H×W×1 or H×W×4, rows packed (pitched rows are
// fine), not empty. Nothing is copied; the caller keeps `object` alive while the image is read (a DLPack
// tensor is kept by DeviceImageRef::owner). A usage Error naming `argument` and what is allowed otherwise.
struct DeviceInput {
  DeviceImageRef image;
  bool two_d = false;  // H×W rather than H×W×C
};
DeviceInput device_image_of(const pybind11::handle& object, const std::string& argument);

// A result on the GPU, kept alive by the DeviceImageRef's owner while Python holds it.
struct DeviceArray {
  DeviceImageRef image;
  bool two_d = false;  // H×W rather than H×W×1
};

void bind_device_array(pybind11::module_& m);

}  // namespace ks::python
