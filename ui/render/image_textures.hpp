#pragma once
// An image as GL textures: one texture when it fits GL_MAX_TEXTURE_SIZE, a grid of tiles otherwise (tile_layout).
// Allocated once per shape; pixels arrive by host upload (upload) or through CUDA-GL interop (interop_target.hpp
// registers these same textures). The renderer's sampler objects decide the filtering (nearest from 1:1 up,
// linear when minified); the textures' own parameters only keep them complete.
#include <vector>

#include "core/image.hpp"
#include "render/gl/gl_objects.hpp"
#include "render/tile_layout.hpp"

namespace ks::ui {

class ImageTextures {
 public:
  struct Tile {
    TileRect rect;
    gl::Texture texture;
  };

  // Makes textures for `shape`, or keeps the present ones when shape and tile size are unchanged. Returns true when
  // it made new ones (their content is undefined until written; interop registrations of old ones are stale).
  bool allocate(const ImageShape& shape, int max_texture_size);
  void clear();

  // Copies the host image into the textures; its shape must be the allocated one (an Internal error otherwise).
  void upload(const Image& image);

  bool empty() const noexcept { return tiles_.empty(); }
  const ImageShape& shape() const noexcept { return shape_; }
  const std::vector<Tile>& tiles() const noexcept { return tiles_; }

 private:
  ImageShape shape_{};
  int max_texture_size_ = 0;
  std::vector<Tile> tiles_;
};

}  // namespace ks::ui
