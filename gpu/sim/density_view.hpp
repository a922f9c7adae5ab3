#pragma once
// A zoomed-out look at a Life grid too large to show cell by cell (65536 x 65536 is 4.3 billion cells): each
// pixel of a window is the fraction of live cells in its square of cells_per_pixel x cells_per_pixel cells,
// cells outside the grid counting as dead. Computed where the state is (a kernel for the CUDA backends), from
// the packed words, so a frame costs the window's pixels and one read of the cells they cover, never a copy
// of the grid. The arithmetic below is shared by the CPU and the CUDA code, so both give the same floats.
#include <cstdint>
#include <string>

#include "core/hd.hpp"

#if !defined(__CUDA_ARCH__)
#include <bit>
#endif

namespace ks::sim {

struct DensityWindow {
  int x0 = 0, y0 = 0;         // the cell at the window's top-left corner (may lie outside the grid)
  int cells_per_pixel = 1;    // the side of each pixel's square of cells
  int width = 0, height = 0;  // pixels
};

inline constexpr int kMaxDensityWindowSide = 16384;
inline constexpr int kMaxCellsPerPixel = 65536;

// Usage Errors for a window with no pixels, more than kMaxDensityWindowSide a side, or cells_per_pixel
// outside 1 .. kMaxCellsPerPixel.
void check_density_window(const DensityWindow& window);

// The cells [begin, end) of pixel p of a window along an axis of n cells starting at `origin`, clipped to the
// grid (begin >= end: none).
KS_HD void pixel_cells(int origin, int p, int cells_per_pixel, int n, long long& begin, long long& end) {
  begin = (long long)origin + (long long)p * cells_per_pixel;
  end = begin + cells_per_pixel;
  begin = begin < 0 ? 0 : begin;
  end = end > n ? n : end;
}

KS_HD int popcount64(std::uint64_t w) {
#if defined(__CUDA_ARCH__)
  return __popcll(w);
#else
  return std::popcount(w);
#endif
}

// Live cells among cells [begin, end) of a packed row (bit j of word i is cell 64 i + j), 0 <= begin.
KS_HD long long count_row_cells(const std::uint64_t* row, long long begin, long long end) {
  long long live = 0;
  for (long long i = begin / 64; i * 64 < end; ++i) {
    const long long lo = begin > i * 64 ? begin - i * 64 : 0, hi = end < i * 64 + 64 ? end - i * 64 : 64;
    const std::uint64_t below_hi = hi == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << hi) - 1;
    live += popcount64(row[i] & below_hi & ~((std::uint64_t(1) << lo) - 1));
  }
  return live;
}

// A pixel's value: its live cells over the cells of its square.
KS_HD float density_of(long long live, int cells_per_pixel) {
  return float(double(live) / (double(cells_per_pixel) * double(cells_per_pixel)));
}

}  // namespace ks::sim
