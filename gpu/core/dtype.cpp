#include "core/dtype.hpp"

#include "core/error.hpp"

namespace ks {

std::size_t dtype_size(DType t) noexcept {
  switch (t) {
    case DType::F32:
    case DType::U32:
    case DType::I32:
      return 4;
    case DType::F64:
    case DType::U64:
      return 8;
  }
  return 0;
}

const char* to_string(DType t) noexcept {
  switch (t) {
    case DType::F32:
      return "f32";
    case DType::F64:
      return "f64";
    case DType::U32:
      return "u32";
    case DType::I32:
      return "i32";
    case DType::U64:
      return "u64";
  }
  return "?";
}

DType dtype_from_string(const std::string& s) {
  for (DType t : {DType::F32, DType::F64, DType::U32, DType::I32, DType::U64})
    if (s == to_string(t)) return t;
  throw_usage("unknown element type '" + s + "'", "use f32, f64, u32, i32 or u64");
}

}  // namespace ks
