#pragma once
// Between Qt's images and ours, so that screenshots are saved by gpu/io (atomic writes, the same formats and
// errors as every other output) rather than by QImage::save.
#include <QImage>

#include "core/image.hpp"

namespace ks::ui::qt {

// RGB, 8 bits per channel, top row first: screenshots are opaque (the framebuffer's alpha means nothing).
Image rgb_image_from(const QImage& image);

}  // namespace ks::ui::qt
