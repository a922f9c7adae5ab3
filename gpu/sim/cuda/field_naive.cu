// Heat and Gray-Scott, "naive": one thread per cell, the centre and its four neighbours of every field read
// from global memory through the boundary remap (the L1 cache catches most of the reuse between neighbours).
#include "sim/cuda/field_step.cuh"

namespace ks::cuda {

namespace {

template <class Step>
__global__ void field_naive_kernel(Planes in, Planes out, int w, int h, FieldEdges edges, Step step) {
  constexpr int NF = Step::kFields;
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= w || y >= h) return;
  const int xw = sim::field_index(x - 1, w, edges.boundary), xe = sim::field_index(x + 1, w, edges.boundary);
  const int yn = sim::field_index(y - 1, h, edges.boundary), ys = sim::field_index(y + 1, h, edges.boundary);
  float cell[NF], sum[NF], next[NF];
#pragma unroll
  for (int f = 0; f < NF; ++f) {
    const Plane& p = in.p[f];
    const float* row = p.row<const float>(y);
    const float west = xw < 0 ? edges.fixed : __ldg(row + xw);
    const float east = xe < 0 ? edges.fixed : __ldg(row + xe);
    const float north = yn < 0 ? edges.fixed : __ldg(p.row<const float>(yn) + x);
    const float south = ys < 0 ? edges.fixed : __ldg(p.row<const float>(ys) + x);
    cell[f] = __ldg(row + x);
    sum[f] = sim::neighbour_sum(west, east, north, south);
  }
  step(cell, sum, next);
#pragma unroll
  for (int f = 0; f < NF; ++f) out.p[f].row<float>(y)[x] = next[f];
}

}  // namespace

SimLaunch make_field_naive_launch(const sim::SimModel& m, BlockShape block) {
  return dispatch_field(m, [&](auto step) {
    using Step = decltype(step);
    SimLaunch l;
    l.shape.func = reinterpret_cast<const void*>(&field_naive_kernel<Step>);
    l.shape.name = std::string(Step::kName) + "_naive";
    l.shape.block = block_dim(block);
    const dim3 b = l.shape.block;
    const dim3 grid(ceil_div(m.width, b.x), ceil_div(m.height, b.y));
    check_grid(grid);
    const FieldEdges edges = field_edges(m);
    l.run = [=, w = m.width, h = m.height](cudaStream_t s, const Planes& in, const Planes& out) {
      field_naive_kernel<Step><<<grid, b, 0, s>>>(in, out, w, h, edges, step);
    };
    return l;
  });
}

}  // namespace ks::cuda
