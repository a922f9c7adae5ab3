#pragma once
// The difference image of a check (usercode::difference_image: |output - reference| per pixel, 1 channel f32)
// as a picture through the colormap tables, for `run --compare`'s diff file and the app's export; the viewport
// shows the same f32 image with its own colormap and range.
#include "core/image.hpp"
#include "report/colormap.hpp"

namespace ks::report {

// The scale that reaches the colormap's top: the largest finite difference, or 1 when no finite difference is
// above 0 (an image that matches, or one whose only differences are infinite).
double diff_full_scale(const Image& diff);

// Levels (1 channel u8): 0 only where the pixel has no difference, otherwise ceil(255 * d / full_scale), at least
// 1 so that the smallest difference shows, at most 255; differences that are not finite are 255. A Usage Error
// unless `diff` is 1 channel f32 and full_scale a number above 0.
Image diff_levels(const Image& diff, double full_scale);

// diff_levels through a colormap: RGB8. Magma: no difference is black, the largest is pale yellow.
Image diff_heatmap(const Image& diff, double full_scale, Colormap map = Colormap::Magma);
inline Image diff_heatmap(const Image& diff) { return diff_heatmap(diff, diff_full_scale(diff)); }

}  // namespace ks::report
