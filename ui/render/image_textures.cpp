#include "render/image_textures.hpp"

#include "core/error.hpp"
#include "render/gl/texture_format.hpp"

namespace ks::ui {

bool ImageTextures::allocate(const ImageShape& shape, int max_texture_size) {
  if (!tiles_.empty() && shape == shape_ && max_texture_size == max_texture_size_) return false;
  clear();
  const gl::PixelFormat f = gl::pixel_format(shape);
  for (const TileRect& rect : tile_layout(shape.width, shape.height, max_texture_size)) {
    Tile tile{rect, gl::Texture()};
    glBindTexture(GL_TEXTURE_2D, tile.texture.id());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);  // one level: complete without mipmaps (and for CUDA)
    glTexImage2D(GL_TEXTURE_2D, 0, f.internal_format, rect.width, rect.height, 0, f.format, f.type, nullptr);
    gl::check("allocating a display texture (glTexImage2D)");
    tiles_.push_back(std::move(tile));
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  shape_ = shape;
  max_texture_size_ = max_texture_size;
  return true;
}

void ImageTextures::clear() {
  tiles_.clear();
  shape_ = {};
  max_texture_size_ = 0;
}

void ImageTextures::upload(const Image& image) {
  if (image.shape() != shape_ || tiles_.empty())
    throw Error(ErrorKind::Internal, "image upload to textures of another shape");
  const gl::PixelFormat f = gl::pixel_format(shape_);
  // Rows are packed (no padding): alignment 1, and the row length lets each tile read its part of every row.
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, shape_.width);
  for (const Tile& tile : tiles_) {
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, tile.rect.x);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, tile.rect.y);
    glBindTexture(GL_TEXTURE_2D, tile.texture.id());
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, tile.rect.width, tile.rect.height, f.format, f.type, image.data());
  }
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_2D, 0);
  gl::check("uploading an image to its textures (glTexSubImage2D)");
}

}  // namespace ks::ui
