#include "py_arrays.hpp"

#include <fmt/format.h>

#include <cstring>
#include <memory>

#include "core/error.hpp"

namespace ks::python {

namespace py = pybind11;

namespace {

constexpr const char* kAllowedImages =
    "allowed: a numpy array of uint8 or float32, C-contiguous, H×W, H×W×3 or H×W×4 (H×W×1 too)";

std::string shape_text(const py::array& a) {
  std::string s;
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? "×" : "") + std::to_string(a.shape(i));
  return s.empty() ? "a scalar" : s;
}

std::string dtype_text(const py::array& a) {
  return py::str(a.dtype()).cast<std::string>();
}

template <class T>
bool has_dtype(const py::array& a) {
  return py::isinstance<py::array_t<T>>(a);
}

}  // namespace

Image borrow_image(const py::handle& object, const std::string& argument) {
  if (!py::isinstance<py::array>(object))
    throw_usage(fmt::format("{} is a {}, not a numpy array", argument,
                            py::str(object.get_type().attr("__name__")).cast<std::string>()),
                kAllowedImages);
  const auto a = py::reinterpret_borrow<py::array>(object);
  ImageShape shape;
  if (has_dtype<std::uint8_t>(a))
    shape.type = ElemType::U8;
  else if (has_dtype<float>(a))
    shape.type = ElemType::F32;
  else
    throw_usage(fmt::format("{} has dtype {}; kernels take uint8 or float32", argument, dtype_text(a)),
                "convert it first, e.g. image.astype(np.float32)");
  if (a.ndim() != 2 && a.ndim() != 3)
    throw_usage(fmt::format("{} is {} ({} dimensions)", argument, shape_text(a), a.ndim()), kAllowedImages);
  const int channels = a.ndim() == 2 ? 1 : int(a.shape(2));
  if (channels != 1 && channels != 3 && channels != 4)
    throw_usage(fmt::format("{} is {}: {} channels", argument, shape_text(a), channels), kAllowedImages);
  if (a.size() == 0)
    throw_usage(fmt::format("{} is {}: it has no pixels", argument, shape_text(a)), kAllowedImages);
  if (!(a.flags() & py::array::c_style))
    throw_usage(fmt::format("{} is not C-contiguous (a view with strides, or Fortran order)", argument),
                "pass np.ascontiguousarray(image): the kernels read rows packed one after another");
  if (a.shape(0) > (1 << 30) || a.shape(1) > (1 << 30))
    throw_usage(fmt::format("{} is {}: too large a side", argument, shape_text(a)),
                "sides up to 2^30 pixels");
  shape.width = int(a.shape(1));
  shape.height = int(a.shape(0));
  shape.channels = channels;
  // Read only: the engine takes its input as const; a read-only array (np.frombuffer) is fine.
  return Image::borrow(shape, static_cast<std::byte*>(const_cast<void*>(a.data())));
}

py::array image_to_numpy(Image image, bool two_d) {
  const py::dtype dtype = image.type() == ElemType::U8    ? py::dtype::of<std::uint8_t>()
                          : image.type() == ElemType::F32 ? py::dtype::of<float>()
                                                          : py::dtype::of<std::uint16_t>();
  std::vector<py::ssize_t> shape{image.height(), image.width()};
  if (!two_d || image.channels() != 1) shape.push_back(image.channels());
  auto owned = std::make_unique<Image>(std::move(image));
  void* data = owned->data();
  py::capsule owner(owned.get(), [](void* p) { delete static_cast<Image*>(p); });
  owned.release();
  return py::array(dtype, shape, data, owner);
}

NdArray ndarray_from_numpy(const py::handle& object, const std::string& name, const std::string& argument) {
  constexpr const char* allowed =
      "allowed: 1-D or 2-D numpy arrays of float32, float64, uint32, int32 or uint64";
  if (!py::isinstance<py::array>(object))
    throw_usage(fmt::format("{} is not a numpy array", argument), allowed);
  const auto a = py::reinterpret_borrow<py::array>(object);
  NdArray out;
  out.name = name;
  if (has_dtype<float>(a))
    out.type = DType::F32;
  else if (has_dtype<double>(a))
    out.type = DType::F64;
  else if (has_dtype<std::uint32_t>(a))
    out.type = DType::U32;
  else if (has_dtype<std::int32_t>(a))
    out.type = DType::I32;
  else if (has_dtype<std::uint64_t>(a))
    out.type = DType::U64;
  else
    throw_usage(fmt::format("{} has dtype {}", argument, dtype_text(a)), allowed);
  if (a.ndim() != 1 && a.ndim() != 2)
    throw_usage(fmt::format("{} is {} ({} dimensions)", argument, shape_text(a), a.ndim()), allowed);
  if (!(a.flags() & py::array::c_style))
    throw_usage(fmt::format("{} is not C-contiguous", argument), "pass np.ascontiguousarray(...)");
  for (py::ssize_t i = 0; i < a.ndim(); ++i) out.shape.push_back(a.shape(i));
  const auto* bytes = static_cast<const std::byte*>(a.data());
  out.data.assign(bytes, bytes + a.nbytes());
  return out;
}

py::array ndarray_to_numpy(NdArray array) {
  py::dtype dtype = py::dtype::of<float>();
  switch (array.type) {
    case DType::F32:
      dtype = py::dtype::of<float>();
      break;
    case DType::F64:
      dtype = py::dtype::of<double>();
      break;
    case DType::U32:
      dtype = py::dtype::of<std::uint32_t>();
      break;
    case DType::I32:
      dtype = py::dtype::of<std::int32_t>();
      break;
    case DType::U64:
      dtype = py::dtype::of<std::uint64_t>();
      break;
  }
  std::vector<py::ssize_t> shape(array.shape.begin(), array.shape.end());
  auto owned = std::make_unique<NdArray>(std::move(array));
  void* data = owned->data.data();
  py::capsule owner(owned.get(), [](void* p) { delete static_cast<NdArray*>(p); });
  owned.release();
  return py::array(dtype, shape, data, owner);
}

}  // namespace ks::python
