#pragma once
// The GL texture format that holds an image's pixels as they are: R8/RG8/RGB8/RGBA8 for u8, R16..RGBA16 (unsigned
// normalised) for u16, R32F..RGBA32F for f32. Same bytes per pixel as the Image, so host uploads and CUDA copies
// move the rows unchanged, and the shader sees u8/u16 as 0..1 (the renderer scales back to the image's units).
#include "core/image.hpp"
#include "render/gl/gl_api.hpp"

namespace ks::ui::gl {

struct PixelFormat {
  GLint internal_format = 0;
  GLenum format = 0;  // GL_RED, GL_RG, GL_RGB, GL_RGBA
  GLenum type = 0;    // GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, GL_FLOAT
};

// Throws an Internal error for channel counts outside 1..4.
PixelFormat pixel_format(const ImageShape& shape);

// What the shader multiplies a sampled value by to get the image's units: 255, 65535 or 1.
float sample_scale(ElemType type);

}  // namespace ks::ui::gl
