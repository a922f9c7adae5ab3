#pragma once
// Which part of a world too large to hold as an image (a Life world of more than 2^30 cells) the view shows, as a
// density view's window (sim/density_view.hpp): the viewport asks the simulation for exactly this each frame, so
// only the visible cells are read, at the screen's resolution. Plain arithmetic on the view (render/view_math.hpp),
// tested on the CPU.
#include "render/view_math.hpp"
#include "sim/density_view.hpp"

namespace ks::ui {

// Cells along each side of one output pixel at this zoom: 1 from one screen pixel per cell up (each cell its own
// pixel, drawn as a square of zoom screen pixels, exactly), else the whole cells a screen pixel spans, floor(1 /
// zoom), so the picture is never coarser than the screen (at most sim::kMaxCellsPerPixel).
int cells_per_pixel_at(double zoom);

// The window of `world` that `view` shows on a viewport of `viewport` screen pixels: cells_per_pixel_at(zoom),
// its first pixel on a multiple of that many cells (a pan moves whole pixels, and the same cells always share a
// pixel, so nothing shimmers), covering every visible cell of the world and nothing past its last pixel. A view
// that shows none of the world gets the pixel of the world nearest to it (a window has at least one pixel).
sim::DensityWindow world_window(const ViewState& view, Size2 viewport, Size2 world);

}  // namespace ks::ui
