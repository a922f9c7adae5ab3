#pragma once
// numpy arrays in and out of the module. Images go in without a copy (an Image borrowing the array's memory)
// and come out without one (the result Image moved into the array's owner); the lab's named arrays are
// copied.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "core/image.hpp"
#include "core/ndarray.hpp"

namespace ks::python {

// `array` (a numpy array of uint8 or float32, C-contiguous, H×W, H×W×1, H×W×3 or H×W×4, not empty) as an
// Image over its memory: nothing is copied, so the array must outlive the image. A usage Error naming
// `argument` and what is allowed otherwise.
Image borrow_image(const pybind11::handle& array, const std::string& argument);

// `image` as a numpy array that owns it (nothing is copied): H×W when `two_d` (one channel), else H×W×C.
pybind11::array image_to_numpy(Image image, bool two_d);

// A lab array from numpy (1-D or 2-D of float32, float64, uint32, int32 or uint64; copied). Usage Error
// naming `argument` otherwise.
NdArray ndarray_from_numpy(const pybind11::handle& array, const std::string& name,
                           const std::string& argument);
pybind11::array ndarray_to_numpy(NdArray array);

}  // namespace ks::python
