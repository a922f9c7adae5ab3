#include "sim/density_view.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks::sim {

void check_density_window(const DensityWindow& w) {
  if (w.width < 1 || w.height < 1 || w.width > kMaxDensityWindowSide || w.height > kMaxDensityWindowSide)
    throw_usage(fmt::format("a density view of {}x{} pixels", w.width, w.height),
                fmt::format("give 1 .. {} pixels a side", kMaxDensityWindowSide));
  if (w.cells_per_pixel < 1 || w.cells_per_pixel > kMaxCellsPerPixel)
    throw_usage(fmt::format("a density view of {} cells per pixel", w.cells_per_pixel),
                fmt::format("give 1 .. {} cells per pixel", kMaxCellsPerPixel));
}

}  // namespace ks::sim
