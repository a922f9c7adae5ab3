#include "qt/qimage_convert.hpp"

#include <cstring>

namespace ks::ui::qt {

Image rgb_image_from(const QImage& source) {
  const QImage rgb = source.convertToFormat(QImage::Format_RGB888);
  Image out(rgb.width(), rgb.height(), 3, ElemType::U8);
  // QImage pads its rows to 4 bytes; ours are packed.
  for (int y = 0; y < rgb.height(); ++y) std::memcpy(out.row<std::uint8_t>(y), rgb.constScanLine(y), out.shape().row_bytes());
  return out;
}

}  // namespace ks::ui::qt
