// Heat and Gray-Scott, "strip": the memory-bound step at the speed of a copy. Each thread owns 4 adjacent
// cells of a row (one 16-byte load and store per field) and walks down a strip of kStripRows rows with the
// rows above, at and below in registers, so every cell is loaded from memory once per step (plus the two rows
// where strips meet, which the L2 cache serves). West and east neighbours come from the next threads of the
// warp by shuffles; only a warp's edge lanes and the grid's edges read a single extra value.
#include "sim/cuda/field_step.cuh"
#include "sim/sim_geometry.hpp"

namespace ks::cuda {

namespace {

constexpr int kStripRows = kFieldStripRows;  // what the launch overlay draws (sim/sim_geometry.hpp)

// Row `y` (-1 .. h) of a field at cells x0 .. x0+3, through the boundary; zeros where the thread has no
// cells.
__device__ __forceinline__ float4 load_quad(const Plane& p, int y, int x0, bool active, int h,
                                            const FieldEdges& e) {
  if (!active) return make_float4(0, 0, 0, 0);
  const int yy = sim::field_index(y, h, e.boundary);
  if (yy < 0) return make_float4(e.fixed, e.fixed, e.fixed, e.fixed);
  return __ldg(reinterpret_cast<const float4*>(p.row<const float>(yy) + x0));
}

__device__ __forceinline__ float at(const float* row, int x, int w, const FieldEdges& e) {
  const int xx = sim::field_index(x, w, e.boundary);
  return xx < 0 ? e.fixed : __ldg(row + xx);
}

template <class Step>
__global__ void field_strip_kernel(Planes in, Planes out, int w, int h, FieldEdges edges, Step step,
                                   int seg) {
  constexpr int NF = Step::kFields;
  // Every thread of the block reaches every shuffle (no early exit): the mask is the lanes this warp has (the
  // block's last warp may be partial).
  const int tid = int(threadIdx.y * blockDim.x + threadIdx.x);
  const int warp_lanes = min(32, int(blockDim.x * blockDim.y) - (tid & ~31));
  const unsigned warp_mask = warp_lanes == 32 ? 0xffffffffu : (1u << warp_lanes) - 1;
  const int lane = int(threadIdx.x) % seg;  // position in the row segment that exchanges neighbours
  const int x0 = 4 * int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y0 = int(blockIdx.y * blockDim.y + threadIdx.y) * kStripRows;
  const bool has_cells = x0 < w;
  float4 above[NF], mid[NF], below[NF];
#pragma unroll
  for (int f = 0; f < NF; ++f) {
    above[f] = load_quad(in.p[f], y0 - 1, x0, has_cells && y0 <= h, h, edges);
    mid[f] = load_quad(in.p[f], y0, x0, has_cells && y0 < h, h, edges);
  }
  for (int r = 0; r < kStripRows; ++r) {
    const int y = y0 + r;
    const bool row_ok = has_cells && y < h;
    float cell[NF][4], sum[NF][4];
#pragma unroll
    for (int f = 0; f < NF; ++f) {
      below[f] = load_quad(in.p[f], y + 1, x0, has_cells && y + 1 <= h, h, edges);
      // Neighbours across the thread's quad: from the threads beside it, or read at the segment's edges.
      float west = __shfl_up_sync(warp_mask, mid[f].w, 1, seg);
      float east = __shfl_down_sync(warp_mask, mid[f].x, 1, seg);
      if (row_ok) {
        const float* row = in.p[f].row<const float>(y);
        if (x0 == 0 || lane == 0) west = at(row, x0 - 1, w, edges);
        if (x0 + 4 < w && lane == seg - 1) east = __ldg(row + x0 + 4);
        // East of the row's last cell, for the thread that holds it.
        const float east_edge = x0 + 4 >= w ? at(row, w, w, edges) : 0.0f;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
          const float c = lane_of(mid[f], k);
          const float wv = k == 0 ? west : lane_of(mid[f], k - 1);
          const float ev = x0 + k + 1 == w ? east_edge : k == 3 ? east : lane_of(mid[f], k + 1);
          cell[f][k] = c;
          sum[f][k] = sim::neighbour_sum(wv, ev, lane_of(above[f], k), lane_of(below[f], k));
        }
      }
    }
    if (row_ok) {
      float next[NF][4];
      step_quad(step, cell, sum, next);
#pragma unroll
      for (int f = 0; f < NF; ++f) store_quad(out.p[f].row<float>(y), x0, w, next[f]);
    }
#pragma unroll
    for (int f = 0; f < NF; ++f) {
      above[f] = mid[f];
      mid[f] = below[f];
    }
  }
}

}  // namespace

SimLaunch make_field_strip_launch(const sim::SimModel& m, BlockShape block) {
  // Threads exchange neighbours along a row inside segments of min(block width, 32) lanes: a block width that
  // is a multiple of 32 (whole warps per row) or a power of two below it (several rows per warp).
  const bool whole_warps = block.x % 32 == 0;
  const bool power_of_two = block.x > 0 && block.x < 32 && (block.x & (block.x - 1)) == 0;
  if (block.x > 0 && block.y > 0 && !whole_warps && !power_of_two)
    throw_usage("block " + to_string(block) +
                    ": the strip variant needs a block width that is a multiple of 32 or "
                    "a power of two below 32 (threads exchange neighbours along rows by warp shuffles)",
                "use e.g. --block 32x8, 64x4 or 16x16, or the naive variant");
  return dispatch_field(m, [&](auto step) {
    using Step = decltype(step);
    SimLaunch l;
    l.shape.func = reinterpret_cast<const void*>(&field_strip_kernel<Step>);
    l.shape.name = std::string(Step::kName) + "_strip";
    l.shape.block = block_dim(block);
    const dim3 b = l.shape.block;
    const int seg = whole_warps ? 32 : block.x;
    const dim3 grid(ceil_div(ceil_div(m.width, 4), b.x), ceil_div(ceil_div(m.height, kStripRows), b.y));
    check_grid(grid);
    const FieldEdges edges = field_edges(m);
    l.run = [=, w = m.width, h = m.height](cudaStream_t s, const Planes& in, const Planes& out) {
      field_strip_kernel<Step><<<grid, b, 0, s>>>(in, out, w, h, edges, step, seg);
    };
    return l;
  });
}

}  // namespace ks::cuda
