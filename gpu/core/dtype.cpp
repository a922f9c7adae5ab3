#include "core/dtype.hpp"

#include "core/enum_names.hpp"
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

namespace {
constexpr EnumName<DType> kDTypeNames[] = {
    {DType::F32, "f32"}, {DType::F64, "f64"}, {DType::U32, "u32"}, {DType::I32, "i32"}, {DType::U64, "u64"}};
}

const char* to_string(DType t) noexcept {
  return name_of(kDTypeNames, t);
}

DType dtype_from_string(const std::string& s) {
  return value_named(kDTypeNames, s, "element type");
}

}  // namespace ks
