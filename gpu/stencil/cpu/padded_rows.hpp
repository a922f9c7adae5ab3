#pragma once
// Source rows with their horizontal halo already filled in by the border rule, kept in a small ring.
// Padding a row once lets every inner loop of the CPU stencils read taps x-r..x+r as plain array offsets:
// `remap` runs only for the 2*rx halo pixels of each row and for rows above/below the image, never per tap.
#include <climits>
#include <cstddef>
#include <cstring>
#include <vector>

#include "core/image.hpp"
#include "stencil/border.hpp"

namespace ks::cpu {

template <class T>
class PaddedRows {
 public:
  // `slots`: how many distinct rows stay available at once (a window of 2*ry+1 rows needs that many).
  PaddedRows(const Image& in, int rx, Border border, T border_value, int slots)
      : in_(in),
        rx_(rx),
        channels_(in.channels()),
        border_(border),
        border_value_(border_value),
        stride_(std::size_t(in.width() + 2 * rx) * std::size_t(in.channels())),
        data_(stride_ * std::size_t(slots)),
        tags_(std::size_t(slots), INT_MIN) {}

  // Elements per padded row: (width + 2*rx) * channels.
  std::size_t stride() const noexcept { return stride_; }

  // The row at vertical position p (any integer, inside the image or not), starting at pixel x = -rx.
  // Valid until `slots` other positions have been asked for.
  const T* get(int p) {
    const std::size_t slot = std::size_t(floor_mod(p, int(tags_.size())));
    T* dst = data_.data() + slot * stride_;
    if (tags_[slot] != p) {
      fill(p, dst);
      tags_[slot] = p;
    }
    return dst;
  }

 private:
  void fill(int p, T* dst) const {
    const int w = in_.width();
    const std::size_t ch = std::size_t(channels_);
    const int r = remap(p, in_.height(), border_);
    if (r < 0) {  // a row of the constant border: every pixel is the border value
      for (std::size_t i = 0; i < stride_; ++i) dst[i] = border_value_;
      return;
    }
    const T* src = in_.row<T>(r);
    std::memcpy(dst + std::size_t(rx_) * ch, src, std::size_t(w) * ch * sizeof(T));
    auto halo_pixel = [&](int x) {  // x outside [0, w)
      T* d = dst + std::size_t(x + rx_) * ch;
      const int sx = remap(x, w, border_);
      for (std::size_t c = 0; c < ch; ++c) d[c] = sx < 0 ? border_value_ : src[std::size_t(sx) * ch + c];
    };
    for (int x = -rx_; x < 0; ++x) halo_pixel(x);
    for (int x = w; x < w + rx_; ++x) halo_pixel(x);
  }

  const Image& in_;
  int rx_;
  int channels_;
  Border border_;
  T border_value_;
  std::size_t stride_;
  std::vector<T> data_;
  std::vector<int> tags_;  // which position each slot holds (INT_MIN: none yet)
};

}  // namespace ks::cpu
