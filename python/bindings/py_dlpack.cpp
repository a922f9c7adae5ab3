#include "py_dlpack.hpp"

#include <fmt/format.h>

#include <vector>

#include "core/error.hpp"

#if KS_HAVE_DLPACK
#include <dlpack/dlpack.h>
#endif

namespace ks::python {

namespace py = pybind11;

#if KS_HAVE_DLPACK

namespace {

constexpr const char* kAllowed =
    "allowed on the CUDA backend: a device tensor of uint8 or float32, H×W or H×W×4 (H×W×1 too) with packed "
    "pixels";

// What a capsule we make owns: the tensor, its shape and strides, and the image's memory.
struct Exported {
  DLManagedTensor tensor{};
  std::vector<std::int64_t> shape, strides;
  std::shared_ptr<const void> owner;
};

void release_consumed(PyObject* capsule) {
  // A capsule nobody consumed still owns its tensor (a consumer renames it "used_dltensor" and calls the
  // deleter).
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;
  auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (t && t->deleter) t->deleter(t);
}

}  // namespace

bool is_dlpack_device_array(const py::handle& object) {
  if (!py::hasattr(object, "__dlpack__") || !py::hasattr(object, "__dlpack_device__")) return false;
  if (py::hasattr(object, "__cuda_array_interface__") || py::hasattr(object, "__array_interface__"))
    return false;
  const auto device = object.attr("__dlpack_device__")().cast<py::tuple>();
  const int type = device[0].cast<int>();
  return type == kDLCUDA || type == kDLCUDAManaged;
}

DeviceImageRef dlpack_device_image(const py::handle& object, const std::string& argument) {
  py::capsule capsule = object.attr("__dlpack__")();
  if (!PyCapsule_IsValid(capsule.ptr(), "dltensor"))
    throw_usage(fmt::format("{}.__dlpack__() gave no DLPack tensor (or one already used)", argument),
                kAllowed);
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  // Ours from here: the producer's capsule no longer frees it.
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  std::shared_ptr<const void> owner(managed, [](const void* p) {
    auto* t = static_cast<DLManagedTensor*>(const_cast<void*>(p));
    if (t->deleter) t->deleter(t);
  });
  const DLTensor& t = managed->dl_tensor;
  std::optional<ElemType> type;
  if (t.dtype.lanes == 1 && t.dtype.code == kDLUInt && t.dtype.bits == 8) type = ElemType::U8;
  if (t.dtype.lanes == 1 && t.dtype.code == kDLFloat && t.dtype.bits == 32) type = ElemType::F32;
  if (!type)
    throw_usage(fmt::format("{} has DLPack type code {} of {} bits; kernels take uint8 or float32", argument,
                            int(t.dtype.code), int(t.dtype.bits)),
                kAllowed);
  if (t.ndim != 2 && t.ndim != 3)
    throw_usage(fmt::format("{} has {} dimensions", argument, t.ndim), kAllowed);
  const int channels = t.ndim == 2 ? 1 : int(t.shape[2]);
  if (channels != 1 && channels != 4)
    throw_usage(fmt::format("{} has {} channels", argument, channels), kAllowed);
  if (t.shape[0] <= 0 || t.shape[1] <= 0) throw_usage(fmt::format("{} has no pixels", argument), kAllowed);
  if (t.shape[0] > (1 << 30) || t.shape[1] > (1 << 30))
    throw_usage(fmt::format("{} is too large a side", argument), "sides up to 2^30 pixels");
  if (t.device.device_type != kDLCUDA && t.device.device_type != kDLCUDAManaged)
    throw_usage(
        fmt::format("{}.__dlpack__() gave a tensor that is not on a CUDA device (DLPack device type {})",
                    argument, int(t.device.device_type)),
        "pass host images as numpy arrays");
  DeviceImageRef ref;
  ref.shape = {int(t.shape[1]), int(t.shape[0]), channels, *type};
  const auto es = std::int64_t(elem_size(*type));
  ref.pitch = ref.shape.row_bytes();
  if (t.strides) {  // in elements; null: C order, packed
    const bool packed = t.strides[1] == channels && (t.ndim == 2 || t.strides[2] == 1) &&
                        t.strides[0] * es >= std::int64_t(ref.pitch);
    if (!packed)
      throw_usage(fmt::format("{} is not laid out as rows of packed pixels", argument),
                  "pass a contiguous tensor");
    ref.pitch = std::size_t(t.strides[0] * es);
  }
  ref.data = static_cast<const char*>(t.data) + t.byte_offset;
  ref.device = t.device.device_id;
  ref.owner = std::move(owner);
  return ref;
}

py::capsule to_dlpack(const DeviceImageRef& image, bool two_d) {
  auto e = std::make_unique<Exported>();
  const auto& s = image.shape;
  const auto es = std::int64_t(elem_size(s.type));
  const bool two = two_d && s.channels == 1;
  e->shape = two ? std::vector<std::int64_t>{s.height, s.width}
                 : std::vector<std::int64_t>{s.height, s.width, s.channels};
  e->strides = two ? std::vector<std::int64_t>{std::int64_t(image.pitch) / es, 1}
                   : std::vector<std::int64_t>{std::int64_t(image.pitch) / es, s.channels, 1};
  e->owner = image.owner;
  DLTensor& t = e->tensor.dl_tensor;
  t.data = const_cast<void*>(image.data);
  t.device = {kDLCUDA, image.device};
  t.ndim = int(e->shape.size());
  t.dtype = s.type == ElemType::U8 ? DLDataType{kDLUInt, 8, 1} : DLDataType{kDLFloat, 32, 1};
  t.shape = e->shape.data();
  t.strides = e->strides.data();
  t.byte_offset = 0;
  e->tensor.manager_ctx = e.get();
  e->tensor.deleter = [](DLManagedTensor* self) { delete static_cast<Exported*>(self->manager_ctx); };
  DLManagedTensor* tensor = &e.release()->tensor;
  return py::capsule(tensor, "dltensor", &release_consumed);
}

#else

bool is_dlpack_device_array(const py::handle&) {
  return false;
}

DeviceImageRef dlpack_device_image(const py::handle&, const std::string& argument) {
  throw_usage(
      fmt::format("{} offers only DLPack, and this build has no DLPack", argument),
      "install libdlpack-dev and build again, or pass an array with __cuda_array_interface__ (CuPy, Numba)");
}

py::capsule to_dlpack(const DeviceImageRef&, bool) {
  throw_usage("this build has no DLPack",
              "install libdlpack-dev and build again, or use __cuda_array_interface__");
}

#endif

}  // namespace ks::python
