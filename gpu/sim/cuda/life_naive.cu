// Life, "naive": one thread per cell, its 3x3 window read from global memory (9 byte loads, which the L1
// cache mostly serves). The baseline the other variants are measured against.
#include "sim/cuda/sim_launch.cuh"

namespace ks::cuda {

namespace {

template <bool Torus>
__global__ void life_naive_kernel(Plane in, Plane out, int w, int h, sim::LifeTable table) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int total = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = y + dy;
    if (yy < 0 || yy >= h) {
      if (!Torus) continue;
      yy = yy < 0 ? yy + h : yy - h;
    }
    const std::uint8_t* row = in.row<const std::uint8_t>(yy);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = x + dx;
      if (xx < 0 || xx >= w) {
        if (!Torus) continue;
        xx = xx < 0 ? xx + w : xx - w;
      }
      total += __ldg(row + xx) & 1;
    }
  }
  out.row<std::uint8_t>(y)[x] = sim::life_cell_next(in.row<const std::uint8_t>(y)[x], total, table);
}

}  // namespace

SimLaunch make_life_naive_launch(const sim::SimModel& m, BlockShape block) {
  auto* kernel = m.life.torus ? &life_naive_kernel<true> : &life_naive_kernel<false>;
  SimLaunch l;
  l.shape = life_launch_shape(m.life.torus, &life_naive_kernel<true>, &life_naive_kernel<false>, "life_naive",
                              block);
  const dim3 b = l.shape.block;
  const dim3 grid(ceil_div(m.width, b.x), ceil_div(m.height, b.y));
  check_grid(grid);
  const sim::LifeTable table = sim::life_table(m.life.rule);
  l.run = [=, w = m.width, h = m.height](cudaStream_t s, const Planes& in, const Planes& out) {
    kernel<<<grid, b, 0, s>>>(in.p[0], out.p[0], w, h, table);
  };
  return l;
}

}  // namespace ks::cuda
