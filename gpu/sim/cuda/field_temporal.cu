// Heat and Gray-Scott, "temporal": K steps per pass over the field (temporal blocking), so that a step costs
// less than the one read and one write of the field that bounds the one-step variants (strip already runs
// close to the copy bandwidth, docs/PERF.md: one step per pass cannot go further).
//
// Why it can be 2x faster per step at 8192² (8192² f32 is 256 MiB a field, far past the L2, so every one-step
// pass streams the field from and to DRAM): a pass reads the field about 1.1-1.4 times (the halo) and writes
// it once for K steps, so DRAM traffic per step falls to ~(2.2 .. 2.4)/K of a copy's; what is left per step
// is arithmetic on registers (about 10 instructions a cell for heat, 30 for Gray-Scott, plus a quarter of
// that for the halo's redundant cells), and no shared memory or barrier stands between a warp's steps, so the
// other warps of the SM hide the loads of the next row. At K = 4 a step moves ~0.28 of the bytes of a
// one-step pass and computes ~1.2 times its cells, where the target asks for half the one-step time. The K
// updates between the read and the write never leave registers. Each warp owns a segment of 128 columns (4
// adjacent cells per lane, one 16-byte access per field) and walks down a strip of kRows rows; the K steps
// form a pipeline down the strip: level s holds the rows above and at the centre of step s in registers, and
// a new row of step s (from the level below) lets it compute one row of step s + 1. West and east neighbours
// come from the next lanes by warp shuffles (two per 4 cells), so no shared memory and no __syncthreads. What
// a level computes wrongly at its segment's two ends (lane 0 has no west, lane 31 no east) moves inwards one
// cell per step, so a segment writes its middle 128 - 2H columns (H = K rounded up to 4 keeps 16-byte
// alignment) and neighbouring segments overlap by 2H; likewise the strip starts K rows above and ends K rows
// below the rows it writes. The cost is the redundant work (at K = 4: 128/120 columns x (64+8)/64 rows) and
// the registers: 2 rows x K levels x fields of float4 (heat K = 8: 64 floats; Gray-Scott K = 8: 128), which
// is why K is a template parameter (the levels are unrolled, so their rows are registers, not local memory).
//
// Exactness: every cell of every step is computed by the same functor from the same neighbour sum as the
// one-step kernels (sim_math.hpp's separately rounded arithmetic), so K passes of one step and one pass of K
// steps give the same bits. Boundaries: a periodic grid is loaded through floor_mod, and the wrapped cells
// are then stepped like any other (the neighbours of a wrapped position are the wrapped neighbours); for
// fixed and insulated boundaries, the cells outside the grid are never used: an edge cell of the grid takes
// its outside neighbour from the fixed value or from itself (the mirror of an insulated edge), as field_index
// says.
#include "sim/cuda/field_step.cuh"

namespace ks::cuda {

namespace {

constexpr int kLanes = 32;
constexpr int kCells = 4;                  // adjacent cells of a row per lane
constexpr int kSegment = kLanes * kCells;  // columns a warp computes
constexpr int kRows = 64;                  // rows a warp writes, walking down
constexpr unsigned kFullWarp =
    0xffffffffu;  // warps are whole (checked at launch) and leave the loop together

template <int K>
constexpr int halo_columns() {
  return (K + kCells - 1) / kCells * kCells;
}
template <int K>
constexpr int written_columns() {
  return kSegment - 2 * halo_columns<K>();
}

// Registers a thread may take, so that whole 256-thread blocks fill the 64K registers of an SM: heat up to k
// = 4 at most 80 (three blocks), heat at k = 8 and Gray-Scott up to k = 4 at most 128 (two blocks; ptxas
// would otherwise take a few more at Gray-Scott's k = 4 and fit one), Gray-Scott at k = 8 (two rows of 8
// levels of 2 fields) up to 255 (one block). None of them spills (ptxas -v).
template <class Step, int K>
constexpr int max_registers() {
  constexpr int rows = Step::kFields * K;  // float4 rows of the pipeline, two each
  return rows <= 4 && Step::kFields == 1 ? 80 : rows <= 8 ? 128 : 255;
}

// Cells x0 .. x0+3 of row y (any integers) through the boundary: wrapped on a torus, the fixed value outside
// a fixed boundary, the edge cell outside an insulated one (never used, see above, but a real cell to read).
__device__ __forceinline__ float4 load_quad(const Plane& p, int y, int x0, int w, int h,
                                            const FieldEdges& e) {
  const int yy = sim::field_index(y, h, e.boundary);
  if (yy < 0) return make_float4(e.fixed, e.fixed, e.fixed, e.fixed);
  const float* row = p.row<const float>(yy);
  if (x0 >= 0 && x0 + 3 < w) return __ldg(reinterpret_cast<const float4*>(row + x0));
  float4 q;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int xx = sim::field_index(x0 + k, w, e.boundary);
    lane_of(q, k) = xx < 0 ? e.fixed : __ldg(row + xx);
  }
  return q;
}

// One step of the centre row `yc` of a level from its rows above, at and below: the row of the next level.
template <class Step>
__device__ __forceinline__ void step_row(const float4 (&above)[Step::kFields],
                                         const float4 (&mid)[Step::kFields],
                                         const float4 (&below)[Step::kFields], float4 (&next)[Step::kFields],
                                         int yc, int x0, bool x_edge, int w, int h, const FieldEdges& e,
                                         const Step& step) {
  constexpr int NF = Step::kFields;
  const bool walled = e.boundary != sim::FieldBoundary::Periodic;
  const bool mirror = e.boundary == sim::FieldBoundary::Insulated;
  const bool top = walled && yc == 0, bottom = walled && yc == h - 1;  // the same for the whole warp
  float cell[NF][4], sum[NF][4];
#pragma unroll
  for (int f = 0; f < NF; ++f) {
    const float west_in = __shfl_up_sync(kFullWarp, mid[f].w, 1);
    const float east_in = __shfl_down_sync(kFullWarp, mid[f].x, 1);
    float wv[4], ev[4], nv[4], sv[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      cell[f][k] = lane_of(mid[f], k);
      wv[k] = k == 0 ? west_in : lane_of(mid[f], k - 1);
      ev[k] = k == 3 ? east_in : lane_of(mid[f], k + 1);
      nv[k] = lane_of(above[f], k);
      sv[k] = lane_of(below[f], k);
    }
    // The grid's edge rows and the lanes that hold an edge column only (a branch, not selects on every cell):
    // an edge cell's outside neighbour is itself (insulated: field_index gives the edge cell) or the fixed
    // value.
    if (top || bottom || x_edge) {
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const float outside = mirror ? cell[f][k] : e.fixed;
        if (top) nv[k] = outside;
        if (bottom) sv[k] = outside;
        if (x0 + k == 0) wv[k] = outside;
        if (x0 + k == w - 1) ev[k] = outside;
      }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) sum[f][k] = sim::neighbour_sum(wv[k], ev[k], nv[k], sv[k]);
  }
  float n[NF][4];
  step_quad(step, cell, sum, n);
#pragma unroll
  for (int f = 0; f < NF; ++f) next[f] = make_float4(n[f][0], n[f][1], n[f][2], n[f][3]);
}

template <class Step, int K>
__global__ void __maxnreg__((max_registers<Step, K>()))
    field_temporal_kernel(Planes in, Planes out, int w, int h, FieldEdges edges, Step step, int segments,
                          int warps) {
  constexpr int NF = Step::kFields;
  constexpr int H = halo_columns<K>();
  constexpr int V = written_columns<K>();
  constexpr int kIterations = kRows + 2 * K;
  // The block's threads in row-major order form its warps; warp g of the grid takes segment g % segments of
  // strip g / segments.
  const int tid = int(threadIdx.y * blockDim.x + threadIdx.x);
  const int lane = tid % kLanes;
  const int warp = int(blockIdx.x) * int(blockDim.x * blockDim.y / kLanes) + tid / kLanes;
  if (warp >= warps) return;             // the whole warp
  const int xs = (warp % segments) * V;  // first column the warp writes
  const int y0 = (warp / segments) * kRows;
  const int x0 = xs - H + kCells * lane;
  const bool walled = edges.boundary != sim::FieldBoundary::Periodic;
  const bool x_edge = walled && ((x0 <= 0 && 0 < x0 + kCells) || (x0 <= w - 1 && w - 1 < x0 + kCells));
  const bool writes = lane >= H / kCells && lane < kLanes - H / kCells;

  // Level s (0 = the field as loaded, s = the field after s steps): its rows above and at the centre of the
  // row that step s + 1 computes next. Zeros until the strip's first rows arrive; what they give is never
  // written.
  float4 above[K][NF], mid[K][NF];
#pragma unroll
  for (int s = 0; s < K; ++s)
#pragma unroll
    for (int f = 0; f < NF; ++f) above[s][f] = mid[s][f] = make_float4(0, 0, 0, 0);

  float4 incoming[NF];
#pragma unroll
  for (int f = 0; f < NF; ++f) incoming[f] = load_quad(in.p[f], y0 - K, x0, w, h, edges);
  for (int i = 0; i < kIterations; ++i) {
    const int y_in = y0 - K + i;  // the row loaded at this iteration; level s gets row y_in - s
    if (y_in - K >= h) break;     // past the grid's last row: nothing more to write (the whole warp)
    float4 row[NF];
#pragma unroll
    for (int f = 0; f < NF; ++f) row[f] = incoming[f];
    if (i + 1 < kIterations)  // the next row's loads in flight while this one's K steps run
#pragma unroll
      for (int f = 0; f < NF; ++f) incoming[f] = load_quad(in.p[f], y_in + 1, x0, w, h, edges);
#pragma unroll
    for (int s = 0; s < K; ++s) {
      float4 next[NF];
      step_row(above[s], mid[s], row, next, y_in - s - 1, x0, x_edge, w, h, edges, step);
#pragma unroll
      for (int f = 0; f < NF; ++f) {
        above[s][f] = mid[s][f];
        mid[s][f] = row[f];
        row[f] = next[f];
      }
    }
    // `row` is now row y_in - K after K steps: valid from the strip's first row on.
    const int y = y_in - K;
    if (y < y0 || !writes) continue;
#pragma unroll
    for (int f = 0; f < NF; ++f) {
      const float v[4] = {row[f].x, row[f].y, row[f].z, row[f].w};
      store_quad(out.p[f].row<float>(y), x0, w, v);
    }
  }
}

// The launch of one pass of K steps.
template <class Step, int K>
SimLaunch temporal_pass(const sim::SimModel& m, BlockShape block, const Step& step) {
  SimLaunch l;
  l.shape.func = reinterpret_cast<const void*>(&field_temporal_kernel<Step, K>);
  l.shape.name = std::string(Step::kName) + "_temporal<" + std::to_string(K) + ">";
  l.shape.block = block_dim(block);
  l.steps_per_pass = K;
  const dim3 b = l.shape.block;
  const int warps_per_block = int(b.x * b.y) / kLanes;
  const long long segments = ceil_div(m.width, written_columns<K>());
  const long long warps = segments * ceil_div(m.height, kRows);
  const dim3 grid(unsigned(ceil_div(warps, warps_per_block)));
  check_grid(grid);
  const FieldEdges edges = field_edges(m);
  l.run = [=, w = m.width, h = m.height](cudaStream_t s, const Planes& in, const Planes& out) {
    field_temporal_kernel<Step, K><<<grid, b, 0, s>>>(in, out, w, h, edges, step, int(segments), int(warps));
  };
  return l;
}

template <class Step>
SimLaunch temporal_pass(const sim::SimModel& m, BlockShape block, const Step& step, int k) {
  switch (k) {
    case 1:
      return temporal_pass<Step, 1>(m, block, step);
    case 2:
      return temporal_pass<Step, 2>(m, block, step);
    case 4:
      return temporal_pass<Step, 4>(m, block, step);
    case 8:
      return temporal_pass<Step, 8>(m, block, step);
    default:
      throw_usage("steps_per_pass=" + std::to_string(k) + " is not one the temporal variant is built for",
                  "use 1, 2, 4 or 8");
  }
}

}  // namespace

SimLaunch make_field_temporal_launch(const sim::SimModel& m, BlockShape block) {
  // Lanes exchange neighbours inside their warp and every lane of a warp takes part: whole warps only.
  if (block.x > 0 && block.y > 0 && block.threads() % kLanes != 0)
    throw_usage(
        "block " + to_string(block) + " has " + std::to_string(block.threads()) +
            " threads: the temporal variant needs a multiple of 32 (each warp computes a segment of 128 "
            "columns, neighbours by warp shuffles)",
        "use e.g. --block 32x8, 16x16 or 128x1");
  const int k = field_steps_per_pass(m);
  return dispatch_field(m, [&](auto step) {
    SimLaunch l = temporal_pass(m, block, step, k);
    // The rest of a step count that is not a multiple of k: passes of fewer steps (powers of two, see
    // sim/pass_steps.hpp), the same kernel with a shorter pipeline.
    std::vector<SimLaunch> shorter;
    for (int s = 1; s < k; s *= 2) shorter.push_back(temporal_pass(m, block, step, s));
    l.run_fewer = [shorter](cudaStream_t st, const Planes& in, const Planes& out, int steps) {
      for (const SimLaunch& p : shorter)
        if (p.steps_per_pass == steps) return p.run(st, in, out);
      throw Error(ErrorKind::Internal, "no temporal pass of " + std::to_string(steps) + " steps");
    };
    return l;
  });
}

}  // namespace ks::cuda
