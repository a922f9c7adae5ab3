#include "core/op_mix.hpp"

namespace ks {

std::string_view ceiling_name(OpKind kind) {
  switch (kind) {
    case OpKind::F32Fma:
      return "f32 FMA";
    case OpKind::F32One:
      return "f32 add/mul";
    case OpKind::U8:
      return "u8 integer";
    case OpKind::I16:
      return "i16 integer";
    case OpKind::I32:
      return "i32 integer";
  }
  return "?";
}

std::string_view op_kind_key(OpKind kind) {
  switch (kind) {
    case OpKind::F32Fma:
      return "f32_fma";
    case OpKind::F32One:
      return "f32_one";
    case OpKind::U8:
      return "u8";
    case OpKind::I16:
      return "i16";
    case OpKind::I32:
      return "i32";
  }
  return "?";
}

}  // namespace ks
