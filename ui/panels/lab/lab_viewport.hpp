#pragma once
// What the viewport shows for a lab kernel of arrays (vecadd, saxpy, reduce, sort, matmul, integrate2d), which
// makes no image: the Lab's roofline, large, with the latest run in one line, and its copy/kernel timeline where the
// run has one. An empty viewport told a learner nothing; the question these kernels teach is how fast a run is
// against what the machine can do (the copy bandwidth, the FMA peak) and how the variants compare, which the
// roofline answers at a glance and the sidebar's Roofline section can only show small. (The launch picture
// pictures image stencils and simulations; a lab run's launch arithmetic is in its report.)
#include <array>

namespace ks::app {
class Session;
}

namespace ks::ui {

struct LabViewDrawn {
  std::array<float, 4> rect{};  // logical pixels: min x, min y, max x, max y; all 0 when not drawn
  int points = 0;               // runs drawn on the roofline
};

// Whether the viewport has nothing of its own to show: a lab kernel that takes no image and made none.
bool lab_view_wanted(const app::Session& session);
// Draws it in `area` (logical pixels: min x, min y, max x, max y: the free part of the image area) when
// lab_view_wanted; nothing when the area is too small to hold a chart.
LabViewDrawn draw_lab_view(const app::Session& session, const std::array<float, 4>& area);

}  // namespace ks::ui
