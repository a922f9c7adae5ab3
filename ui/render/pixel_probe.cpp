#include "render/pixel_probe.hpp"

#include <fmt/format.h>

#include "core/pixel_values.hpp"

namespace ks::ui {

PixelProbe probe_pixel(const DisplayFrame& frame, const ViewState& view, Size2 viewport, Vec2 screen) {
  PixelProbe probe;
  if (!frame.input && !frame.output && !frame.output_device) return probe;
  const ImageShape shape = shown_image_shape(frame);
  const PixelHit hit = pixel_at(view, viewport, {shape.width, shape.height}, screen);
  if (!hit.inside) return probe;
  probe.inside = true;
  probe.x = hit.x;
  probe.y = hit.y;
  probe.channels = shape.channels;
  probe.type = shape.type;
  if (frame.input) {
    probe.input = read_pixel(*frame.input, hit.x, hit.y);
    probe.has_input = true;
  }
  // A result of another size (none of the kernels makes one) is only probed where it has pixels.
  auto inside = [&](const ImageShape& s) { return hit.x < s.width && hit.y < s.height; };
  if (frame.output && frame.output_placement) {
    // A window of a larger world: the output pixel whose square of cells holds the cell under the cursor.
    const OutputPlacement& at = *frame.output_placement;
    const long long ox = (hit.x - at.x0) / at.cells_per_pixel, oy = (hit.y - at.y0) / at.cells_per_pixel;
    const ImageShape& s = frame.output->shape();
    if (hit.x >= at.x0 && hit.y >= at.y0 && ox < s.width && oy < s.height) {
      probe.output = read_pixel(*frame.output, int(ox), int(oy));
      probe.has_output = true;
      probe.output_channels = s.channels;
      probe.output_type = s.type;
    }
  } else if (frame.output && inside(frame.output->shape())) {
    probe.output = read_pixel(*frame.output, hit.x, hit.y);
    probe.has_output = true;
    probe.output_channels = frame.output->shape().channels;
    probe.output_type = frame.output->shape().type;
  } else if (frame.output_device && inside(frame.output_device.shape)) {
    probe.output = read_device_pixel(frame.output_device, hit.x, hit.y);
    probe.has_output = true;
    probe.output_from_device = true;
    probe.output_channels = frame.output_device.shape.channels;
    probe.output_type = frame.output_device.shape.type;
  }
  return probe;
}

std::string format_probe(const PixelProbe& probe) {
  if (!probe.inside) return "off the image";
  auto values = [](const std::array<double, 4>& v, int channels, ElemType type) {
    std::string s;
    for (int c = 0; c < channels && c < 4; ++c)
      s += type == ElemType::F32 ? fmt::format(" {:.4g}", v[std::size_t(c)])
                                 : fmt::format(" {}", static_cast<long long>(v[std::size_t(c)]));
    return s;
  };
  std::string text = fmt::format("({}, {})", probe.x, probe.y);
  if (probe.has_input) text += "  in" + values(probe.input, probe.channels, probe.type);
  if (probe.has_output) text += "  out" + values(probe.output, probe.output_channels, probe.output_type);
  return text;
}

}  // namespace ks::ui
