#include "py_device_arrays.hpp"

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "core/error.hpp"
#include "py_arrays.hpp"
#include "py_dlpack.hpp"

namespace ks::python {

namespace py = pybind11;

namespace {

constexpr const char* kAllowed =
    "allowed on the CUDA backend: a device array of uint8 or float32, H×W or H×W×4 (H×W×1 too) with packed "
    "pixels; convert three channels to four first";

// numpy's typestr of the two element types ('<f4', '|u1'; '=' and no byte order read as native
// little-endian).
std::optional<ElemType> elem_type_of(std::string typestr) {
  if (!typestr.empty() && (typestr[0] == '<' || typestr[0] == '|' || typestr[0] == '=')) typestr.erase(0, 1);
  if (typestr == "u1") return ElemType::U8;
  if (typestr == "f4") return ElemType::F32;
  return std::nullopt;
}

const char* typestr_of(ElemType t) {
  return t == ElemType::U8 ? "|u1" : "<f4";
}

}  // namespace

bool is_device_array(const py::handle& object) {
  if (py::isinstance<py::array>(object)) return false;
  return py::hasattr(object, "__cuda_array_interface__") || is_dlpack_device_array(object);
}

DeviceInput device_image_of(const py::handle& object, const std::string& argument) {
  if (!py::hasattr(object, "__cuda_array_interface__")) {
    DeviceInput in{dlpack_device_image(object, argument), false};
    in.two_d = py::len(object.attr("shape")) == 2;
    return in;
  }
  const py::dict cai = object.attr("__cuda_array_interface__");
  if (cai.contains("mask") && !cai["mask"].is_none())
    throw_usage(fmt::format("{} is a masked device array", argument), kAllowed);
  const auto shape = cai["shape"].cast<std::vector<py::ssize_t>>();
  const std::string typestr = cai["typestr"].cast<std::string>();
  const auto type = elem_type_of(typestr);
  if (!type)
    throw_usage(fmt::format("{} has element type '{}'; kernels take uint8 or float32", argument, typestr),
                kAllowed);
  if (shape.size() != 2 && shape.size() != 3)
    throw_usage(fmt::format("{} has {} dimensions", argument, shape.size()), kAllowed);
  const int channels = shape.size() == 2 ? 1 : int(shape[2]);
  if (channels != 1 && channels != 4)
    throw_usage(fmt::format("{} has {} channels", argument, channels), kAllowed);
  if (shape[0] <= 0 || shape[1] <= 0) throw_usage(fmt::format("{} has no pixels", argument), kAllowed);
  if (shape[0] > (1 << 30) || shape[1] > (1 << 30))
    throw_usage(fmt::format("{} is too large a side", argument), "sides up to 2^30 pixels");
  DeviceImageRef ref;
  ref.shape = {int(shape[1]), int(shape[0]), channels, *type};
  ref.pitch = ref.shape.row_bytes();
  const auto es = py::ssize_t(elem_size(*type));
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    const auto strides = cai["strides"].cast<std::vector<py::ssize_t>>();
    // Rows may be pitched; the pixels within a row must be packed, channels interleaved.
    const bool packed = strides.size() == shape.size() && strides[1] == es * channels &&
                        (shape.size() == 2 || strides[2] == es) && strides[0] >= py::ssize_t(ref.pitch);
    if (!packed)
      throw_usage(fmt::format("{} is not laid out as rows of packed pixels (strides {})", argument,
                              py::str(cai["strides"]).cast<std::string>()),
                  "pass a C-contiguous array (cupy.ascontiguousarray)");
    ref.pitch = std::size_t(strides[0]);
  }
  const auto data = cai["data"].cast<py::tuple>();
  ref.data = reinterpret_cast<const void*>(data[0].cast<std::uintptr_t>());
  if (!ref.data) throw_usage(fmt::format("{} has no memory (a null pointer)", argument), kAllowed);
  return {ref, shape.size() == 2};
}

void bind_device_array(py::module_& m) {
  py::class_<DeviceArray>(
      m, "DeviceArray",
      "A result that stays on the GPU: pass it to cupy.asarray or numba.cuda.as_cuda_array "
      "(no copy), or copy it to the host with copy_to_host()")
      .def_property_readonly("shape",
                             [](const DeviceArray& a) {
                               const auto& s = a.image.shape;
                               // py::tuple on both sides: pybind11 3 types make_tuple by its arguments
                               return a.two_d && s.channels == 1
                                          ? py::tuple(py::make_tuple(s.height, s.width))
                                          : py::tuple(py::make_tuple(s.height, s.width, s.channels));
                             })
      .def_property_readonly("dtype",
                             [](const DeviceArray& a) {
                               return a.image.shape.type == ElemType::U8 ? py::dtype::of<std::uint8_t>()
                                                                         : py::dtype::of<float>();
                             })
      .def_property_readonly(
          "__cuda_array_interface__",
          [](const DeviceArray& a) {
            const auto& s = a.image.shape;
            const auto es = py::ssize_t(elem_size(s.type));
            const bool two = a.two_d && s.channels == 1;
            py::dict cai;
            cai["shape"] = two ? py::tuple(py::make_tuple(s.height, s.width))
                               : py::tuple(py::make_tuple(s.height, s.width, s.channels));
            cai["strides"] = two ? py::tuple(py::make_tuple(py::ssize_t(a.image.pitch), es))
                                 : py::tuple(py::make_tuple(py::ssize_t(a.image.pitch), es * s.channels, es));
            cai["typestr"] = typestr_of(s.type);
            cai["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(a.image.data), false);
            cai["version"] = 3;
            cai["stream"] = py::none();  // finished before it was handed over
            return cai;
          })
      .def(
          "__dlpack__", [](const DeviceArray& a, const py::object&) { return to_dlpack(a.image, a.two_d); },
          py::arg("stream") = py::none())
      .def("__dlpack_device__",
           [](const DeviceArray& a) { return py::make_tuple(2, a.image.device); })  // kDLCUDA
      .def("copy_to_host",
           [](const DeviceArray& a) {
             Image host;
             {
               py::gil_scoped_release release;
               host = download_device_image(a.image);
             }
             return image_to_numpy(std::move(host), a.two_d);
           })
      .def("__repr__", [](const DeviceArray& a) {
        const auto& s = a.image.shape;
        return fmt::format("<kernelscope.DeviceArray {}x{}x{} {} on GPU {}>", s.height, s.width, s.channels,
                           to_string(s.type), a.image.device);
      });
}

}  // namespace ks::python
