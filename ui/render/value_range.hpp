#pragma once
// Which values the colormap's ends stand for (ViewState::range_min/max), in the image's own units.
#include <optional>

#include "core/image.hpp"

namespace ks::ui {

struct ValueRange {
  float min = 0, max = 1;
  bool operator==(const ValueRange&) const = default;
};

// u8 0..255, u16 0..65535, f32 0..1 (images loaded from 8/16-bit files, and most results, lie there).
ValueRange natural_range(ElemType type);

// Smallest and largest finite value over the colour channels (alpha, the 4th of 4, is left out); empty when the
// image has no finite value.
std::optional<ValueRange> data_range(const Image& image);

// A range for showing a result: its type's natural range; for a signed f32 result (Laplacian, dx, dy) a range
// symmetric about 0 that reaches the largest |value| of `host_output` (+-1 when there is no host copy or every
// value is 0). u8 results are saturated to 0..255 by the kernels, so they keep 0..255 even when signed.
ValueRange suggested_range(const ImageShape& shape, bool signed_output, const Image* host_output);

}  // namespace ks::ui
