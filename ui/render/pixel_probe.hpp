#pragma once
// The pixel inspector's lookup: which pixel is under the cursor and what the input and the output hold there, in
// the images' own units. GL-free; a result that lives on the GPU only is read one pixel at a time.
#include <array>
#include <string>

#include "session/display_frame.hpp"
#include "render/view_math.hpp"

namespace ks::ui {

struct PixelProbe {
  bool inside = false;  // false: the cursor is off the image (nothing else is set)
  int x = 0, y = 0;
  int channels = 0;  // of the input (the output's when there is none)
  ElemType type = ElemType::U8;
  // The output's own layout: a lab result may differ from its input (kmeans makes RGB u8 of an RGBA or gray image).
  int output_channels = 0;
  ElemType output_type = ElemType::U8;
  bool has_input = false, has_output = false;
  bool output_from_device = false;  // read from DisplayFrame::output_device (there was no host copy)
  std::array<double, 4> input{}, output{};
};

// Throws a Device error only when reading a device-only result fails.
PixelProbe probe_pixel(const DisplayFrame& frame, const ViewState& view, Size2 viewport, Vec2 screen);

// "(812, 130)  in 20 20 20 255  out 0 0 0 255": each image's own channels, integers for integer images, 4
// significant digits for f32.
std::string format_probe(const PixelProbe& probe);

}  // namespace ks::ui
