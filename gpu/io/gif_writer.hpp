#pragma once
// Animated GIFs, written a frame at a time (a simulation's steps as they come) through giflib: 8-bit indexed
// frames over one 256-colour palette (a colormap), a fixed delay, looping forever. The file appears only when
// finish() succeeds (AtomicFile): an error or a cancel leaves no partial GIF and an existing file untouched.
//
//   GifAnimation gif("life.gif", 512, 512, gray_palette(), 4);   // 4/100 s per frame
//   gif.add_frame(indexed);                                       // 1 channel u8, 512 x 512, as many as wanted
//   gif.finish();
//
// Builds without giflib (libgif-dev) have the class too; its constructor throws the usage Error of
// require_gif_support(), which says how to get GIF support.
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "core/image.hpp"

namespace ks {

using Rgb8 = std::array<std::uint8_t, 3>;

// The frame delay every GIF export starts from: 4/100 s, 25 frames per second.
inline constexpr int kDefaultGifDelayCs = 4;

// Nothing in a build that writes GIFs; otherwise a usage Error saying how to get a build that does. For checking a
// request before any work.
void require_gif_support();

// Entry i = (i, i, i).
inline std::array<Rgb8, 256> gray_palette() {
  std::array<Rgb8, 256> p{};
  for (int i = 0; i < 256; ++i) p[std::size_t(i)] = {std::uint8_t(i), std::uint8_t(i), std::uint8_t(i)};
  return p;
}

class GifAnimation {
 public:
  static constexpr int kMaxSide = 65535;  // the format's 16-bit sizes

  // width, height in 1..kMaxSide; delay_cs (hundredths of a second per frame) in 1..65535: anything else is a
  // usage Error. palette: the colour of each index.
  GifAnimation(const std::filesystem::path& target, int width, int height, std::span<const Rgb8, 256> palette,
               int delay_cs);
  ~GifAnimation();
  GifAnimation(const GifAnimation&) = delete;
  GifAnimation& operator=(const GifAnimation&) = delete;

  // A frame of palette indices: 1 channel, u8, width x height (a usage Error otherwise).
  void add_frame(const Image& indices);
  // Writes the end of the file and puts it in place; at least one frame is needed (a usage Error otherwise).
  void finish();

  long long frames() const noexcept { return frames_; }

 private:
  struct Writer;
  std::unique_ptr<Writer> writer_;
  int width_ = 0, height_ = 0;
  long long frames_ = 0;
};

}  // namespace ks
