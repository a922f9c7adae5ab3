// Life, "tiled": each block loads its tile of cells plus a one-cell halo into shared memory once (each cell
// read from global memory about once instead of nine times), then every thread counts its window there.
#include "sim/cuda/sim_launch.cuh"

namespace ks::cuda {

namespace {

template <bool Torus>
__global__ void life_tiled_kernel(Plane in, Plane out, int w, int h, sim::LifeTable table) {
  extern __shared__ std::uint8_t tile[];  // (blockDim.x + 2) x (blockDim.y + 2), bit 0: alive
  const int tw = int(blockDim.x) + 2, th = int(blockDim.y) + 2;
  const int x0 = int(blockIdx.x * blockDim.x) - 1, y0 = int(blockIdx.y * blockDim.y) - 1;
  const int threads = int(blockDim.x * blockDim.y);
  for (int i = int(threadIdx.y * blockDim.x + threadIdx.x); i < tw * th; i += threads) {
    int gx = x0 + i % tw, gy = y0 + i / tw;
    std::uint8_t v = 0;
    if (Torus) {
      gx = gx < 0 ? gx + w : gx >= w ? gx - w : gx;
      gy = gy < 0 ? gy + h : gy >= h ? gy - h : gy;
      // Past the far edge of a grid narrower than the block, the wrapped index can still be outside: unused.
      if (gx >= 0 && gx < w && gy >= 0 && gy < h) v = __ldg(in.row<const std::uint8_t>(gy) + gx) & 1;
    } else if (gx >= 0 && gx < w && gy >= 0 && gy < h) {
      v = __ldg(in.row<const std::uint8_t>(gy) + gx) & 1;
    }
    tile[i] = v;
  }
  __syncthreads();
  const int x = x0 + 1 + int(threadIdx.x), y = y0 + 1 + int(threadIdx.y);
  if (x >= w || y >= h) return;
  const std::uint8_t* t = tile + threadIdx.y * tw + threadIdx.x;  // the window's top-left
  const int total =
      t[0] + t[1] + t[2] + t[tw] + t[tw + 1] + t[tw + 2] + t[2 * tw] + t[2 * tw + 1] + t[2 * tw + 2];
  out.row<std::uint8_t>(y)[x] = sim::life_cell_next(t[tw + 1], total, table);
}

}  // namespace

SimLaunch make_life_tiled_launch(const sim::SimModel& m, BlockShape block) {
  auto* kernel = m.life.torus ? &life_tiled_kernel<true> : &life_tiled_kernel<false>;
  const std::size_t smem = std::size_t(block.x + 2) * std::size_t(block.y + 2);
  SimLaunch l;
  l.shape = life_launch_shape(m.life.torus, &life_tiled_kernel<true>, &life_tiled_kernel<false>, "life_tiled",
                              block, smem);
  const dim3 b = l.shape.block;
  const dim3 grid(ceil_div(m.width, b.x), ceil_div(m.height, b.y));
  check_grid(grid);
  const sim::LifeTable table = sim::life_table(m.life.rule);
  l.run = [=, w = m.width, h = m.height](cudaStream_t s, const Planes& in, const Planes& out) {
    kernel<<<grid, b, smem, s>>>(in.p[0], out.p[0], w, h, table);
  };
  return l;
}

}  // namespace ks::cuda
