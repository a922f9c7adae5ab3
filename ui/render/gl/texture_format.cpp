#include "render/gl/texture_format.hpp"

#include <string>

#include "core/error.hpp"

namespace ks::ui::gl {

PixelFormat pixel_format(const ImageShape& shape) {
  if (shape.channels < 1 || shape.channels > 4)
    throw Error(ErrorKind::Internal, "cannot display an image with " + std::to_string(shape.channels) + " channels");
  static constexpr GLenum formats[] = {GL_RED, GL_RG, GL_RGB, GL_RGBA};
  static constexpr GLint u8[] = {GL_R8, GL_RG8, GL_RGB8, GL_RGBA8};
  static constexpr GLint u16[] = {GL_R16, GL_RG16, GL_RGB16, GL_RGBA16};
  static constexpr GLint f32[] = {GL_R32F, GL_RG32F, GL_RGB32F, GL_RGBA32F};
  const int i = shape.channels - 1;
  switch (shape.type) {
    case ElemType::U8: return {u8[i], formats[i], GL_UNSIGNED_BYTE};
    case ElemType::U16: return {u16[i], formats[i], GL_UNSIGNED_SHORT};
    case ElemType::F32: return {f32[i], formats[i], GL_FLOAT};
  }
  throw Error(ErrorKind::Internal, "unknown element type");
}

float sample_scale(ElemType type) {
  switch (type) {
    case ElemType::U8: return 255.0f;
    case ElemType::U16: return 65535.0f;
    case ElemType::F32: return 1.0f;
  }
  return 1.0f;
}

}  // namespace ks::ui::gl
