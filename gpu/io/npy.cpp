#include "io/npy.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/npy_format.hpp"

namespace ks {

namespace {

constexpr const char* kAllowed =
    "write it with numpy.save from a C-ordered 1-D or 2-D array of float32, float64, uint32, int32 or uint64";

constexpr DType kTypes[] = {DType::F32, DType::F64, DType::U32, DType::I32, DType::U64};

std::string descr_of(DType t) {
  switch (t) {
    case DType::F32:
      return "<f4";
    case DType::F64:
      return "<f8";
    case DType::U32:
      return "<u4";
    case DType::I32:
      return "<i4";
    case DType::U64:
      return "<u8";
  }
  return "";
}

// The lab's arrays: the five types, 1-D or 2-D, C order (or a 2-D array with a single row or column, whose
// order does not matter).
DType lab_type(const NpyHeader& h, const std::string& what) {
  for (DType t : kTypes)
    if (npy_descr_is(h.descr, descr_of(t))) {
      if (h.shape.empty() || h.shape.size() > 2)
        refuse_npy(what, fmt::format("{} dimensions (1-D and 2-D arrays only)", h.shape.size()), kAllowed);
      if (h.fortran_order && h.shape.size() == 2 && h.shape[0] > 1 && h.shape[1] > 1)
        refuse_npy(what, "Fortran (column-major) order; save numpy.ascontiguousarray(a)", kAllowed);
      return t;
    }
  refuse_npy(
      what,
      fmt::format("element type '{}' ({})", h.descr,
                  !h.descr.empty() && h.descr[0] == '>' ? "big-endian" : "not f32, f64, u32, i32 or u64"),
      kAllowed);
}

NpyCheck lab_check(const std::string& what) {
  return [what](const NpyHeader& h) {
    const DType t = lab_type(h, what);
    return NpyElement{dtype_size(t), to_string(t)};
  };
}

NdArray to_array(NpyContent c, const std::string& what) {
  NdArray a;
  a.type = lab_type(c.header, what);
  a.shape = std::move(c.header.shape);
  a.data = std::move(c.data);
  return a;
}

}  // namespace

NdArray parse_npy(std::span<const std::byte> bytes, const std::string& what) {
  return to_array(parse_npy_content(bytes, what, lab_check(what), kAllowed), what);
}

NdArray read_npy(const std::filesystem::path& path) {
  const std::string what = path.string();
  return to_array(read_npy_content(path, lab_check(what), kAllowed), what);
}

std::string npy_header(const NdArray& a) {
  return npy_header_text(descr_of(a.type), a.shape);
}

void write_npy(const std::filesystem::path& path, const NdArray& a) {
  if (a.shape.empty() || a.shape.size() > 2)
    throw Error(ErrorKind::Internal, fmt::format("write_npy: {} dimensions", a.shape.size()));
  if (a.data.size() != std::size_t(a.count()) * dtype_size(a.type))
    throw Error(ErrorKind::Internal, "write_npy: the data does not match the shape");
  write_npy_content(path, descr_of(a.type), a.shape, a.data);
}

}  // namespace ks
