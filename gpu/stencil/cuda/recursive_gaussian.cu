// The "recursive" variant of the gaussian: the recursive (IIR) Gaussian of stencil/recursive_gaussian.hpp,
// rows then columns, each a causal and an anti-causal recursion over the same input, in the block-parallel
// form of stencil/recursive_tiles.hpp (Nehab et al. 2011), so that a pixel costs the same whatever sigma is
// and every step is parallel over tiles or over lines.
//
// The image is cut into square tiles (64 pixels a side, 32 for 4 channels); seven launches, in the two-read form
// of Nehab et al. (recursive_carry_shares.hpp):
//   1. recursive_row_pass: each tile filters its rows from zero carries (their end states are the rows'
//      summaries), then sums its columns of those rows into their zero-carry summaries; the tiles at the top and
//      bottom also keep those rows, which the columns' warm-ups read (reads the image);
//   2. recursive_warmups (rows): the carries into every row's ends, the warm-ups over the border extension as
//      weighted sums, each row's split over a warp (the columns': 16 threads);
//   3. recursive_row_carries: a thread per row and direction walks its tiles' summaries into the carries each
//      tile starts with;
//   4. recursive_column_shares: each tile adds to its columns' summaries (and edge rows) the shares of its rows'
//      carries: each carry component's weighted sum down the rows times the tile's fixed response to it (no
//      image read);
//   5., 6. the same warm-ups and walks for every element column;
//   7. recursive_tiles_final: each tile filters its rows, then its columns, with their carries, and
//      writes the result (reads the image, writes the output).
// The image crosses device memory twice in and once out; no float image of the row pass is written. The
// carries are 11 floats per tile line (a sixth of a float a pixel each way with 64-pixel tiles), the edge
// rows about 2 x 7 sigma filtered rows, and the warm-ups (about 7 sigma samples at each line end) are the
// only work that grows with sigma.
//
// In a tile, a thread runs a line: first an element row (the tile's rows' channels), then an element column.
// Shared memory holds the tile (its rows C floats longer than their elements, so that the 32 rows or 8 pixels
// x 4 channels a warp walks fall on distinct banks; consecutive columns are on consecutive banks); a line's
// samples go to registers before its walks, so that the causal results can take their place and the row pass
// ends in place.
#include <cuda_pipeline.h>
#include <type_traits>

#include "core/error.hpp"
#include "stencil/cuda/recursive_kernels.cuh"
#include "stencil/recursive_carry_shares.hpp"
#include "stencil/recursive_tiles.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cuda {

namespace {

template <int C>
constexpr int kTile = C == 1 ? 64 : 32;  // pixels a tile side
static_assert(kTile<1> <= kMaxSummaryTile && kTile<4> <= kMaxSummaryTile);
// A thread per element row of the tile, and then per element column (as many: the tile is square).
template <int C>
constexpr int kTileThreads = kTile<C> * C;
template <int C>
constexpr int kStride = kTile<C> * C + C;  // floats a tile row takes in shared memory
template <int C>
constexpr int kTileFloats = kTile<C> * kStride<C>;
// Blocks an SM holds of the kernels that filter lines from registers (a line's samples each), so that the
// compiler does not fill the register file with few blocks. One-channel f32: 12 warps, whose 168 registers hold
// a line and its walks without spilling; u8 and four channels: 16 warps in 128 registers, with some spills,
// which measured faster for one-channel u8 and four-channel f32 (docs/PERF.md).
template <class T, int C>
constexpr int kTileBlocks = C == 1 && std::is_same_v<T, float> ? 6 : 512 / kTileThreads<C>;

template <class T, int C>
struct TiledJob {
  ImageView<T, C> in, out;
  RecursiveGaussian f;
  BorderRead border;
  CarryTable rows;     // lines: the image's element rows (height x C)
  CarryTable columns;  // lines: its element columns (width x C)
  float* edge;         // the row pass's result on the edge rows (EdgeRows' slots), width x C floats a row
  EdgeRows edge_rows;
  LineTiles row_tiles, column_tiles;
  LineTransfers row_transfers, column_transfers;
  SummaryWeights weights;
  const WarmupWeight* warmup_weights;      // causal [0, warmup), then anti-causal (recursive_tiles.hpp)
  const CarryResponses* responses;         // two-read form: a full tile's rows' [0], the last tile column's [1]
  CarryTable row_warmups, column_warmups;  // one tile: the carries into the lines' ends
};

// The tile's pixel extent from its block's coordinates.
struct TileSpot {
  int tx, ty;  // tile column, tile row
  int x0, y0;  // first pixel
  int w, h;    // pixels
};
template <class T, int C>
__device__ __forceinline__ TileSpot tile_spot(const TiledJob<T, C>& j) {
  const int tx = blockIdx.x, ty = blockIdx.y;
  return {tx, ty, tx * kTile<C>, ty * kTile<C>, j.row_tiles.length_of(tx), j.column_tiles.length_of(ty)};
}

// The tile into xs: element e of tile row r at r * kStride + e, a thread per element column. A float image
// goes by asynchronous copies, all of the tile's in flight at once without holding registers (the filtering
// kernels keep a line in theirs); u8 through registers, its rows unrolled so that their loads overlap. Waits
// for this thread's asynchronous copies, the carries' included; followed by __syncthreads() in every kernel.
template <class T, int C>
__device__ __forceinline__ void load_tile(const TiledJob<T, C>& j, const TileSpot& t, float* xs) {
  const int e = threadIdx.x;
  if (e < t.w * C) {
    const T* p = j.in.row(t.y0) + t.x0 * C + e;
    const std::size_t pitch = j.in.pitch / sizeof(T);
    if constexpr (sizeof(T) == sizeof(float)) {
      for (int r = 0; r < t.h; ++r)
        __pipeline_memcpy_async(xs + r * kStride<C> + e, p + std::size_t(r) * pitch, 4);
    } else {
#pragma unroll 16
      for (int r = 0; r < t.h; ++r) xs[r * kStride<C> + e] = float(p[std::size_t(r) * pitch]);
    }
  }
  __pipeline_commit();  // the tile's copies and the carries' (copy_carries)
  __pipeline_wait_prior(0);
}

// Line `length` samples at line[i * step], into registers (the first `length` of kTile).
template <int N>
__device__ __forceinline__ void line_to_registers(const float* line, int step, int length, float (&x)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    if (i < length) x[i] = line[i * step];
}

// Filters the line in place from its carries (emit(i, v) for each result), from registers: a tile's full
// lines with a constant length, so that the walks unroll without tests; its last, shorter ones with them.
// The walks' end states go to causal_end and anticausal_end where given (filter_tile).
template <int N, class Emit>
__device__ __forceinline__ void filter_line(const RecursiveGaussian& f, int length, float* line, int step,
                                            const CausalLine& causal, const AnticausalLine& anticausal,
                                            const Emit& emit, CausalLine* causal_end = nullptr,
                                            AnticausalLine* anticausal_end = nullptr) {
  float x[N];
  line_to_registers(line, step, length, x);
  const auto sample = [&](int i) { return x[i]; };
  const auto keep = [&](int i) -> float& { return line[i * step]; };
  if (length == N) {
    filter_tile<N>(f, N, sample, causal, anticausal, keep, emit, causal_end, anticausal_end);
  } else {
    filter_tile<N>(f, length, sample, causal, anticausal, keep, emit, causal_end, anticausal_end);
  }
}

// The carries of the tile's lines, copied to shared memory with the tile (load_tile waits for both), so that
// their loads overlap the tile's and no registers hold them through the row pass: float k of line l at
// [k * Stride + l], which CarryTable reads as one tile of Stride lines. The tile kernels' threads read their own
// lines' (stride kTileThreads); the column shares' threads read a component each down the lines, so theirs is
// kStride, C floats longer, which puts the components in different banks.
template <int C, int Stride = kTileThreads<C>>
using TileCarries = float[CarryTable::kFloats * Stride];

// Line first_line + threadIdx.x's carries into `to`, when that line is the tile's.
template <int Stride>
__device__ __forceinline__ void copy_carries(const CarryTable& table, int tile, int first_line, bool in_tile,
                                             float* to) {
  if (!in_tile) return;
  const float* from = table.at(tile, first_line + int(threadIdx.x));
#pragma unroll
  for (int k = 0; k < CarryTable::kFloats; ++k)
    __pipeline_memcpy_async(&to[k * Stride + threadIdx.x], from + std::size_t(k) * std::size_t(table.lines), 4);
}
// This thread's element row's carries (for the row pass) and element column's (for the column pass).
template <class T, int C, int Stride = kTileThreads<C>>
__device__ __forceinline__ void copy_row_carries(const TiledJob<T, C>& j, const TileSpot& t, float* to) {
  copy_carries<Stride>(j.rows, t.tx, t.y0 * C, int(threadIdx.x) / C < t.h, to);
}
template <class T, int C>
__device__ __forceinline__ void copy_column_carries(const TiledJob<T, C>& j, const TileSpot& t,
                                                    TileCarries<C>& to) {
  copy_carries<kTileThreads<C>>(j.columns, t.ty, t.x0 * C, int(threadIdx.x) < t.w * C, to);
}
template <int C, int Stride = kTileThreads<C>>
__device__ __forceinline__ CarryTable carries_in(float* carries) {
  return {carries, Stride};
}

// The row pass of the tile in place, each element row from its carries.
template <class T, int C>
__device__ __forceinline__ void filter_tile_rows(const TiledJob<T, C>& j, const TileSpot& t, float* xs,
                                                 TileCarries<C>& row_carries) {
  const int l = threadIdx.x, r = l / C, ch = l % C;
  if (r >= t.h) return;
  float* row = xs + r * kStride<C> + ch;
  const CarryTable carries = carries_in<C>(row_carries);
  filter_line<kTile<C>>(j.f, t.w, row, C, carries.causal(0, l), carries.anticausal(0, l),
                        [&](int i, float v) { row[i * C] = v; });
}

// A line's summaries, as weighted sums of its `length` samples x(i), into `table` at (tile, line): a full
// tile's with a constant length, so that the weights are the multiply-adds' constant operands.
template <int C, class X>
__device__ __forceinline__ void store_summaries(const SummaryWeights& w, int length, const X& x,
                                                const CarryTable& table, int tile, int line) {
  CausalLine causal;
  AnticausalLine anticausal;
  if (length == kTile<C>) {
    weighted_summaries<kTile<C>>(w, kTile<C>, x, causal, anticausal);
  } else {
    weighted_summaries<kTile<C>>(w, length, x, causal, anticausal);
  }
  table.set(tile, line, causal);
  table.set(tile, line, anticausal);
}

// The tile's columns (its rows filtered, in xs) summed into their summaries, and its rows in the edge bands kept
// for the columns' warm-ups.
template <class T, int C>
__device__ __forceinline__ void store_column_summaries_and_edges(const TiledJob<T, C>& j, const TileSpot& t,
                                                                 const float* xs) {
  const int e = threadIdx.x;
  if (e >= t.w * C) return;
  const int column = t.x0 * C + e;
  const auto y = [&](int i) { return xs[i * kStride<C> + e]; };
  store_summaries<C>(j.weights, t.h, y, j.columns, t.ty, column);
  // The edge bands are the image's first and last rows: a tile in one holds its first or its last row there.
  if (j.edge_rows.slot(t.y0) < 0 && j.edge_rows.slot(t.y0 + t.h - 1) < 0) return;
  const std::size_t elements = std::size_t(j.in.row_elements());
  for (int i = 0; i < t.h; ++i) {
    const int slot = j.edge_rows.slot(t.y0 + i);
    if (slot >= 0) j.edge[std::size_t(slot) * elements + std::size_t(column)] = y(i);
  }
}

// The warm-ups: each line's split over parts that sum every kParts-th sample's share, then the thread of part
// 0 adds the parts up. A warp reads consecutive samples: of one row (a warp a row, 32 parts), or of 32
// element columns side by side (a warp a part, 16 parts).
template <bool kColumns>
constexpr int kWarmupLines = kColumns ? 32 : 16;  // a block's
template <bool kColumns>
constexpr int kWarmupParts = 512 / kWarmupLines<kColumns>;

template <class T, int C, bool kColumns>
__global__ void __launch_bounds__(512) recursive_warmups_kernel(const __grid_constant__ TiledJob<T, C> j) {
  constexpr int kLines = kWarmupLines<kColumns>, kParts = kWarmupParts<kColumns>;
  __shared__ LineCarry parts[2][kParts][kLines];
  const CarryTable& warmups = kColumns ? j.column_warmups : j.row_warmups;
  const int slot = kColumns ? threadIdx.x : threadIdx.y, part = kColumns ? threadIdx.y : threadIdx.x;
  const int line = blockIdx.x * kLines + slot;
  const int n = kColumns ? j.in.height : j.in.width, warmup = j.f.warmup;
  const std::size_t elements = std::size_t(j.columns.lines);
  const bool in_image = line < warmups.lines;
  const T* row = j.in.row(kColumns || !in_image ? 0 : line / C) + line % C;  // rows: the line's own row
  const auto sample = [&](int i) {
    if constexpr (kColumns) {
      return j.edge[std::size_t(j.edge_rows.slot(i)) * elements + std::size_t(line)];
    } else {
      return float(row[i * C]);
    }
  };
  LineCarry causal, anticausal;
  if (in_image)
    add_warmup_shares(j.warmup_weights, j.warmup_weights + warmup, warmup, part, kParts, n, j.border.mode,
                      j.border.value, sample, causal, anticausal);
  parts[0][part][slot] = causal;
  parts[1][part][slot] = anticausal;
  __syncthreads();
  if (part != 0 || !in_image) return;
  CausalLine c;
  AnticausalLine a;
  for (int k = 0; k < kParts; ++k) {
    const LineCarry &pc = parts[0][k][slot], &pa = parts[1][k][slot];
    c.s.a1 += pc.a1, c.s.a2 += pc.a2, c.s.b1 += pc.b1, c.s.b2 += pc.b2;
    a.s.a1 += pa.a1, a.s.a2 += pa.a2, a.s.b1 += pa.b1, a.s.b2 += pa.b2;
  }
  set_warmup_samples(n, j.border.mode, j.border.value, sample, c, a);
  warmups.set(0, line, c);
  warmups.set(0, line, a);
}

// A thread per line and direction (the causal walks first, then the anti-causal ones).
template <class T, int C>
__global__ void recursive_row_carries_kernel(const __grid_constant__ TiledJob<T, C> j) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x, lines = j.rows.lines;
  if (index >= 2 * lines) return;
  line_carries(j.rows, index % lines, index >= lines, j.row_tiles, j.row_transfers, j.row_warmups);
}

// ---- the two-read form (recursive_carry_shares.hpp): the rows filtered once from zero carries in the first
// kernel

// Step 1: each tile's rows filtered from zero carries, in place; their end states are the rows' summaries
// (row table). Then the columns' summaries of those rows (column table: the zero-carry part, which step 4
// completes) and, in the edge bands, the rows (edge, likewise).
template <class T, int C>
__global__ void __launch_bounds__(kTileThreads<C>, kTileBlocks<T, C>)
    recursive_row_pass_kernel(const __grid_constant__ TiledJob<T, C> j) {
  __shared__ float xs[kTileFloats<C>];
  const TileSpot t = tile_spot(j);
  load_tile(j, t, xs);
  __syncthreads();
  const int l = threadIdx.x, r = l / C, ch = l % C;
  if (r < t.h) {
    float* row = xs + r * kStride<C> + ch;
    CausalLine causal;
    AnticausalLine anticausal;
    filter_line<kTile<C>>(
        j.f, t.w, row, C, CausalLine{}, AnticausalLine{}, [&](int i, float v) { row[i * C] = v; }, &causal,
        &anticausal);
    const int line = (t.y0 + r) * C + ch;
    j.rows.set(t.tx, line, causal);
    j.rows.set(t.tx, line, anticausal);
  }
  __syncthreads();
  store_column_summaries_and_edges(j, t, xs);
}

// Step 4: the columns' summaries and the edge rows completed with the rows' carries' shares. No image read:
// the tile's rows' carries (11 floats each) and its columns' zero-carry summaries.
template <class T, int C>
__global__ void __launch_bounds__(kTileThreads<C>)
    recursive_column_shares_kernel(const __grid_constant__ TiledJob<T, C> j) {
  constexpr int kShareFloats = C * int(sizeof(CarryColumnShares) / sizeof(float));
  __shared__ TileCarries<C, kStride<C>> rows;
  __shared__ float share_floats[kShareFloats];  // CarryColumnShares[C] (no constructor runs in shared memory)
  CarryColumnShares* shares = reinterpret_cast<CarryColumnShares*>(share_floats);
  const TileSpot t = tile_spot(j);
  copy_row_carries<T, C, kStride<C>>(j, t, rows);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  const CarryTable carries = carries_in<C, kStride<C>>(rows);
  // A thread per channel, carry component and direction sums the component down the tile's rows in registers;
  // the two directions in different warps, so that no warp runs both.
  constexpr int kHalf = kTileThreads<C> / 2;
  static_assert(C * kCarryComponents <= kHalf, "a direction's sums fit in half the tile's threads");
  const bool anticausal_sum = threadIdx.x >= kHalf;
  const int task = int(threadIdx.x) - (anticausal_sum ? kHalf : 0);
  if (task < C * kCarryComponents) {
    const int ch = task % C, c = task / C;
    const float* component = carries.at(0, ch) + std::size_t(c) * kStride<C>;
    const auto value = [&](int r) { return component[r * C]; };
    // A full tile's rows as a constant, so that its weights are the multiply-adds' constant operands.
    const auto share = [&](auto anticausal) {
      constexpr bool kAnticausal = decltype(anticausal)::value;
      if (t.h == kTile<C>)
        set_component_share<kAnticausal, kTile<C>>(j.weights, kTile<C>, c, value, shares[ch]);
      else
        set_component_share<kAnticausal, kTile<C>>(j.weights, t.h, c, value, shares[ch]);
    };
    if (anticausal_sum)
      share(std::true_type{});
    else
      share(std::false_type{});
  }
  __syncthreads();
  const int e = threadIdx.x;
  if (e >= t.w * C) return;
  const int i = e / C, ch = e % C, column = t.x0 * C + e;
  const ColumnResponse response = column_response(j.responses[t.w == kTile<C> ? 0 : 1], i);
  CausalLine causal = j.columns.causal(t.ty, column);
  AnticausalLine anticausal = j.columns.anticausal(t.ty, column);
  add_carry_shares(response, t.h, shares[ch], causal, anticausal);
  j.columns.set(t.ty, column, causal);
  j.columns.set(t.ty, column, anticausal);
  if (j.edge_rows.slot(t.y0) < 0 && j.edge_rows.slot(t.y0 + t.h - 1) < 0) return;
  const std::size_t elements = std::size_t(j.in.row_elements());
  for (int r = 0; r < t.h; ++r) {
    const int slot = j.edge_rows.slot(t.y0 + r);
    if (slot < 0) continue;
    float& y = j.edge[std::size_t(slot) * elements + std::size_t(column)];
    y = add_row_carries_response(response, carries.causal(0, r * C + ch), carries.anticausal(0, r * C + ch), y);
  }
}

template <class T, int C>
__global__ void recursive_column_carries_kernel(const __grid_constant__ TiledJob<T, C> j) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x, lines = j.columns.lines;
  if (index >= 2 * lines) return;
  line_carries(j.columns, index % lines, index >= lines, j.column_tiles, j.column_transfers,
               j.column_warmups);
}

template <class T>
__device__ __forceinline__ T to_pixel(float v) {
  if constexpr (sizeof(T) == 1) {
    return saturate_u8(v);
  } else {
    return v;
  }
}

template <class T, int C>
__global__ void __launch_bounds__(kTileThreads<C>, kTileBlocks<T, C>)
    recursive_tiles_final_kernel(const __grid_constant__ TiledJob<T, C> j) {
  __shared__ float xs[kTileFloats<C>];
  __shared__ TileCarries<C> rows, columns;
  const TileSpot t = tile_spot(j);
  copy_row_carries(j, t, rows);
  copy_column_carries(j, t, columns);
  load_tile(j, t, xs);
  __syncthreads();
  filter_tile_rows(j, t, xs, rows);
  __syncthreads();
  const int e = threadIdx.x;
  if (e >= t.w * C) return;
  T* out = j.out.row(t.y0) + t.x0 * C + e;
  const std::size_t pitch = j.out.pitch / sizeof(T);
  const CarryTable carries = carries_in<C>(columns);
  filter_line<kTile<C>>(j.f, t.h, xs + e, kStride<C>, carries.causal(0, e), carries.anticausal(0, e),
                        [&](int i, float v) { out[std::size_t(i) * pitch] = to_pixel<T>(v); });
}

// The summaries, carries and edge rows, made on the launch's first run (not for a launch that is only
// validated or asked about its occupancy) and kept for its later runs.
struct RecursiveScratch {
  DeviceBuffer rows, columns, edge, warmup_weights, row_warmups, column_warmups, responses;
};

KernelLaunchShape tile_shape(const void* func, std::string name, int threads) {
  KernelLaunchShape s;
  s.func = func;
  s.name = std::move(name);
  s.block = dim3(unsigned(threads));
  return s;
}

}  // namespace

StencilLaunch make_recursive_launch(const StencilJob& job) {
  if (job.plan.gaussian_sigma < kRecursiveMinSigma)
    throw_usage("the recursive variant runs the gaussian kernel with sigma >= 1", "use separable");
  const RecursiveGaussian filter = recursive_gaussian(job.plan.gaussian_sigma);
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    StencilLaunch l;
    // The job's block is the carry walks' (a thread per line and direction); the tile kernels' blocks are
    // their tiles' own.
    l.shape = tile_shape(reinterpret_cast<const void*>(&recursive_column_carries_kernel<T, C>),
                         kernel_name<T, C>("recursive_column_carries"), job.block.threads());
    validate_launch(job.device, l.shape);
    const KernelLaunchShape tile_kernels[] = {
        tile_shape(reinterpret_cast<const void*>(&recursive_row_pass_kernel<T, C>),
                   kernel_name<T, C>("recursive_row_pass"), kTileThreads<C>),
        tile_shape(reinterpret_cast<const void*>(&recursive_column_shares_kernel<T, C>),
                   kernel_name<T, C>("recursive_column_shares"), kTileThreads<C>),
        tile_shape(reinterpret_cast<const void*>(&recursive_tiles_final_kernel<T, C>),
                   kernel_name<T, C>("recursive_tiles_final"), kTileThreads<C>),
        tile_shape(reinterpret_cast<const void*>(&recursive_row_carries_kernel<T, C>),
                   kernel_name<T, C>("recursive_row_carries"), job.block.threads()),
        tile_shape(reinterpret_cast<const void*>(&recursive_warmups_kernel<T, C, false>),
                   kernel_name<T, C>("recursive_warmups"), 512),
        tile_shape(reinterpret_cast<const void*>(&recursive_warmups_kernel<T, C, true>),
                   kernel_name<T, C>("recursive_warmups"), 512)};
    for (const KernelLaunchShape& s : tile_kernels) validate_launch(job.device, s);

    TiledJob<T, C> base{};
    base.f = filter;
    base.border = border_read(job.plan, job.type);
    const LineTiles row_tiles = LineTiles::of(job.width, kTile<C>);
    const LineTiles column_tiles = LineTiles::of(job.height, kTile<C>);
    base.row_tiles = row_tiles;
    base.column_tiles = column_tiles;
    base.row_transfers = line_transfers(filter, row_tiles);
    base.column_transfers = line_transfers(filter, column_tiles);
    base.weights = summary_weights(filter);
    base.edge_rows = EdgeRows::of(job.height, filter.warmup);
    const int width = job.width, height = job.height, lines = height * C, elements = width * C;
    base.rows.lines = lines;
    base.columns.lines = elements;
    const dim3 tiles(unsigned(row_tiles.count), unsigned(column_tiles.count));
    // A walker per line and direction.
    const unsigned walkers = unsigned(job.block.threads());
    const dim3 row_walks(unsigned((2 * lines + int(walkers) - 1) / int(walkers)));
    const dim3 column_walks(unsigned((2 * elements + int(walkers) - 1) / int(walkers)));
    const dim3 warmup_block(32, 16);
    const dim3 row_warmup_blocks(unsigned((lines + kWarmupLines<false> - 1) / kWarmupLines<false>));
    const dim3 column_warmup_blocks(unsigned((elements + kWarmupLines<true> - 1) / kWarmupLines<true>));
    const WarmupWeights warmups = warmup_weights(filter);
    check_grid(row_warmup_blocks);
    check_grid(column_warmup_blocks);
    check_grid(tiles);
    check_grid(row_walks);
    check_grid(column_walks);
    auto scratch = std::make_shared<RecursiveScratch>();
    l.run = [=](cudaStream_t s, const DeviceImages& d) {
      if (!scratch->rows.bytes()) {
        const auto bytes = [](unsigned long long floats) { return std::size_t(floats) * sizeof(float); };
        scratch->rows = DeviceBuffer(bytes(CarryTable::floats(row_tiles.count, lines)),
                                     "the recursive Gaussian's row carries");
        scratch->columns = DeviceBuffer(bytes(CarryTable::floats(column_tiles.count, elements)),
                                        "the recursive Gaussian's column carries");
        scratch->edge = DeviceBuffer(bytes((unsigned long long)base.edge_rows.count() * elements),
                                     "the recursive Gaussian's edge rows");
        scratch->row_warmups =
            DeviceBuffer(bytes(CarryTable::floats(1, lines)), "the recursive Gaussian's warm-ups");
        scratch->column_warmups =
            DeviceBuffer(bytes(CarryTable::floats(1, elements)), "the recursive Gaussian's warm-ups");
        std::vector<WarmupWeight> weights = warmups.causal;
        weights.insert(weights.end(), warmups.anticausal.begin(), warmups.anticausal.end());
        scratch->warmup_weights =
            upload_array(weights.data(), weights.size(), "the recursive Gaussian's warm-up weights");
        const CarryResponses responses[2] = {carry_responses(filter, row_tiles.length),
                                             carry_responses(filter, row_tiles.last)};
        scratch->responses = upload_array(responses, 2, "the recursive Gaussian's carry responses");
      }
      TiledJob<T, C> j = base;
      j.in = {d.in, d.in_pitch, width, height};
      j.out = {d.out, d.out_pitch, width, height};
      j.rows.base = scratch->rows.as<float>();
      j.columns.base = scratch->columns.as<float>();
      j.edge = scratch->edge.as<float>();
      j.warmup_weights = scratch->warmup_weights.as<WarmupWeight>();
      j.responses = scratch->responses.as<CarryResponses>();
      j.row_warmups = {scratch->row_warmups.as<float>(), lines};
      j.column_warmups = {scratch->column_warmups.as<float>(), elements};
      const dim3 tile_block(unsigned(kTileThreads<C>));
      recursive_row_pass_kernel<T, C><<<tiles, tile_block, 0, s>>>(j);
      recursive_warmups_kernel<T, C, false><<<row_warmup_blocks, warmup_block, 0, s>>>(j);
      recursive_row_carries_kernel<T, C><<<row_walks, walkers, 0, s>>>(j);
      recursive_column_shares_kernel<T, C><<<tiles, tile_block, 0, s>>>(j);
      recursive_warmups_kernel<T, C, true><<<column_warmup_blocks, warmup_block, 0, s>>>(j);
      recursive_column_carries_kernel<T, C><<<column_walks, walkers, 0, s>>>(j);
      recursive_tiles_final_kernel<T, C><<<tiles, tile_block, 0, s>>>(j);
    };
    return l;
  });
}

}  // namespace ks::cuda
