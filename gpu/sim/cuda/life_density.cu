// The density view of a packed Life grid (sim/density_view.hpp) on the device: one thread per pixel counts
// the live cells of its square with popcounts of the words it covers, so a window of a 65536 x 65536 world
// reads at most the grid once (537 MB, a fraction of a millisecond) and only the window's floats cross to the
// host.
#include "core/cuda/check.cuh"
#include "sim/cuda/sim_launch.cuh"

namespace ks::cuda {

namespace {

__global__ void density_view_kernel(Plane words, int width, int height, sim::DensityWindow w, Plane out) {
  const int px = int(blockIdx.x * blockDim.x + threadIdx.x), py = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (px >= w.width || py >= w.height) return;
  long long x0, x1, y0, y1;
  sim::pixel_cells(w.x0, px, w.cells_per_pixel, width, x0, x1);
  sim::pixel_cells(w.y0, py, w.cells_per_pixel, height, y0, y1);
  long long live = 0;
  for (long long y = y0; y < y1 && x0 < x1; ++y)
    live += sim::count_row_cells(words.row<const std::uint64_t>(int(y)), x0, x1);
  out.row<float>(py)[px] = sim::density_of(live, w.cells_per_pixel);
}

}  // namespace

void density_view_words(const Plane& words, int width, int height, const sim::DensityWindow& window,
                        const Plane& out, cudaStream_t s) {
  const dim3 block(32, 8), grid(ceil_div(window.width, 32), ceil_div(window.height, 8));
  density_view_kernel<<<grid, block, 0, s>>>(words, width, height, window, out);
  check_launch("density_view");
}

}  // namespace ks::cuda
