// The "recursive" variant of the gaussian: the recursive (IIR) Gaussian of stencil/recursive_gaussian.hpp,
// rows then columns, each a causal and an anti-causal recursion over the same input, in the block-parallel
// form of stencil/recursive_tiles.hpp (Nehab et al. 2011), so that a pixel costs the same whatever sigma is
// and every step is parallel over tiles or over lines.
//
// The image is cut into square tiles (64 pixels a side, 32 for 4 channels); five launches:
//   1. recursive_row_summaries: each tile's rows from zero carries; keeps only their end states (reads the
//   image);
//   2. recursive_row_carries: a thread per row walks its tiles' summaries into the carries each tile starts
//      with, from the warm-up over the border extension at the row's ends;
//   3. recursive_column_summaries: each tile filters its rows with their carries (plus the rows just above
//   and
//      below it, which its columns' feed-forward reads), then its columns from zero carries, and keeps their
//      end states; the tiles at the top and bottom also keep their filtered rows for step 4 (reads the
//      image);
//   4. recursive_column_carries: a thread per element column walks the column summaries, from the warm-up
//   over
//      the filtered edge rows;
//   5. recursive_tiles_final: each tile filters its rows, then its columns, with their carries, and writes
//   the
//      result (reads the image, writes the output).
// The image crosses device memory three times in and once out; no float image of the row pass is written. The
// summaries are 8 floats per tile line (an eighth of a float a pixel each way with 64-pixel tiles), the edge
// rows about 2 x 7 sigma filtered rows, and the warm-ups at the lines' ends (about 7 sigma each) are the only
// work that grows with sigma. Nehab et al. save the middle read: a tile's filtered rows are its zero-carry
// rows plus each row's carries times the tile's fixed responses to them, so step 1 could keep the zero-carry
// rows' column summaries and step 4 add the carries' share, leaving two reads and one write.
//
// In a tile, shared memory holds the input with a one-pixel halo before and two after along both axes (what
// the feed-forward taps reach), and the row pass's result: each thread runs a row (rows: strided by the tile
// row, odd for one channel, 4 x an odd number for four, so the 32 rows or 8 pixels x 4 channels a warp walks
// fall on distinct banks), then an element column (consecutive threads on consecutive banks).
#include "core/error.hpp"
#include "stencil/cuda/recursive_kernels.cuh"
#include "stencil/recursive_tiles.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cuda {

namespace {

template <int C>
constexpr int kTile = C == 1 ? 64 : 32;  // pixels a tile side
template <int C>
constexpr int kStride = (kTile<C> + 3) * C;  // floats a tile row takes, halo included
// Whole warps enough for a thread per element row of the tile, halo rows included (the row pass: 67 rows, 35
// x 4 element rows), so that each pass over the tile is one walk a thread.
template <int C>
constexpr int kTileThreads = 32 * ((kStride<C> + 31) / 32);
template <int C>
constexpr int kTileFloats = (kTile<C> + 3) * kStride<C>;

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
  TileTransfer row_full, row_last, column_full, column_last;
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

// Tile rows [r0, r1) (-1: the halo row above; h, h + 1: those below), each with its halo pixels, into xs
// through the border; row r at xs + (r + 1) * kStride, pixel i of it at (i + 1) * C.
template <class T, int C>
__device__ __forceinline__ void load_tile(const TiledJob<T, C>& j, const TileSpot& t, float* xs, int r0,
                                          int r1) {
  const int elements = (t.w + 3) * C, count = (r1 - r0) * elements;
  for (int k = threadIdx.x; k < count; k += kTileThreads<C>) {
    const int r = r0 + k / elements, e = k % elements;
    const int y = remap(t.y0 + r, j.in.height, j.border.mode);
    const int x = remap(t.x0 - 1 + e / C, j.in.width, j.border.mode);
    xs[(r + 1) * kStride<C> + e] = y < 0 || x < 0 ? j.border.value : float(j.in.row(y)[x * C + e % C]);
  }
}

// The row pass of tile rows [-1, h + 2) from their carries into ys (laid out as xs). A halo row off the image
// is its border row's result (the same row of the extended image), or the border value for the constant
// border, as the sequential column pass reads it.
template <class T, int C>
__device__ __forceinline__ void filter_tile_rows(const TiledJob<T, C>& j, const TileSpot& t, const float* xs,
                                                 float* ys) {
  const int lines = (t.h + 3) * C;
  for (int l = threadIdx.x; l < lines; l += kTileThreads<C>) {
    const int r = l / C - 1, ch = l % C;
    const float* x_row = xs + (r + 1) * kStride<C> + ch;
    float* y_row = ys + (r + 1) * kStride<C> + ch;
    const int y = remap(t.y0 + r, j.in.height, j.border.mode);
    if (y < 0) {
      for (int i = 0; i < t.w; ++i) y_row[(i + 1) * C] = j.border.value;
      continue;
    }
    const int line = y * C + ch;
    const auto x = [&](int i) { return x_row[(i + 1) * C]; };
    const auto keep = [&](int i) -> float& { return y_row[(i + 1) * C]; };
    filter_tile(j.f, t.w, x, j.rows.get(t.tx, CarryTable::kCausal, line),
                j.rows.get(t.tx, CarryTable::kAnticausal, line), keep, [&](int i, float v) { keep(i) = v; });
  }
}

template <class T, int C>
__global__ void __launch_bounds__(kTileThreads<C>) recursive_row_summaries_kernel(TiledJob<T, C> j) {
  __shared__ float xs[kTileFloats<C>];
  const TileSpot t = tile_spot(j);
  load_tile(j, t, xs, 0, t.h);
  __syncthreads();
  for (int l = threadIdx.x; l < t.h * C; l += kTileThreads<C>) {
    const int r = l / C, ch = l % C, line = (t.y0 + r) * C + ch;
    const float* x_row = xs + (r + 1) * kStride<C> + ch;
    const auto x = [&](int i) { return x_row[(i + 1) * C]; };
    j.rows.set(t.tx, CarryTable::kCausal, line, causal_summary(j.f, t.w, x));
    j.rows.set(t.tx, CarryTable::kAnticausal, line, anticausal_summary(j.f, t.w, x));
  }
}

template <class T, int C>
__global__ void recursive_row_carries_kernel(TiledJob<T, C> j) {
  const int line = blockIdx.x * blockDim.x + threadIdx.x;
  if (line >= j.rows.lines) return;
  const T* row = j.in.row(line / C) + line % C;
  line_carries(j.rows, line, j.row_tiles, j.f, j.row_full, j.row_last, j.border.mode, j.border.value,
               [&](int i) { return float(row[i * C]); });
}

template <class T, int C>
__global__ void __launch_bounds__(kTileThreads<C>) recursive_column_summaries_kernel(TiledJob<T, C> j) {
  __shared__ float xs[kTileFloats<C>], ys[kTileFloats<C>];
  const TileSpot t = tile_spot(j);
  load_tile(j, t, xs, -1, t.h + 2);
  __syncthreads();
  filter_tile_rows(j, t, xs, ys);
  __syncthreads();
  const int elements = j.in.row_elements();
  for (int e = threadIdx.x; e < t.w * C; e += kTileThreads<C>) {
    const int column = t.x0 * C + e;
    const auto y = [&](int i) { return ys[(i + 1) * kStride<C> + C + e]; };
    j.columns.set(t.ty, CarryTable::kCausal, column, causal_summary(j.f, t.h, y));
    j.columns.set(t.ty, CarryTable::kAnticausal, column, anticausal_summary(j.f, t.h, y));
    for (int i = 0; i < t.h; ++i) {
      const int slot = j.edge_rows.slot(t.y0 + i);
      if (slot >= 0) j.edge[std::size_t(slot) * std::size_t(elements) + std::size_t(column)] = y(i);
    }
  }
}

template <class T, int C>
__global__ void recursive_column_carries_kernel(TiledJob<T, C> j) {
  const int column = blockIdx.x * blockDim.x + threadIdx.x;
  if (column >= j.columns.lines) return;
  const std::size_t elements = std::size_t(j.columns.lines);
  line_carries(j.columns, column, j.column_tiles, j.f, j.column_full, j.column_last, j.border.mode,
               j.border.value,
               [&](int y) { return j.edge[std::size_t(j.edge_rows.slot(y)) * elements + column]; });
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
__global__ void __launch_bounds__(kTileThreads<C>) recursive_tiles_final_kernel(TiledJob<T, C> j) {
  __shared__ float xs[kTileFloats<C>], ys[kTileFloats<C>];
  const TileSpot t = tile_spot(j);
  load_tile(j, t, xs, -1, t.h + 2);
  __syncthreads();
  filter_tile_rows(j, t, xs, ys);
  __syncthreads();  // from here xs keeps the columns' causal results
  for (int e = threadIdx.x; e < t.w * C; e += kTileThreads<C>) {
    const int column = t.x0 * C + e;
    const auto y = [&](int i) { return ys[(i + 1) * kStride<C> + C + e]; };
    const auto keep = [&](int i) -> float& { return xs[(i + 1) * kStride<C> + C + e]; };
    filter_tile(j.f, t.h, y, j.columns.get(t.ty, CarryTable::kCausal, column),
                j.columns.get(t.ty, CarryTable::kAnticausal, column), keep,
                [&](int i, float v) { j.out.row(t.y0 + i)[column] = to_pixel<T>(v); });
  }
}

// The summaries, carries and edge rows, made on the launch's first run (not for a launch that is only
// validated or asked about its occupancy) and kept for its later runs.
struct RecursiveScratch {
  DeviceBuffer rows, columns, edge;
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
    // The job's block is the carry walks' (a thread per line); the tile kernels' blocks are their tiles' own.
    l.shape = tile_shape(reinterpret_cast<const void*>(&recursive_column_carries_kernel<T, C>),
                         kernel_name<T, C>("recursive_column_carries"), job.block.threads());
    validate_launch(job.device, l.shape);
    const KernelLaunchShape tile_kernels[] = {
        tile_shape(reinterpret_cast<const void*>(&recursive_row_summaries_kernel<T, C>),
                   kernel_name<T, C>("recursive_row_summaries"), kTileThreads<C>),
        tile_shape(reinterpret_cast<const void*>(&recursive_column_summaries_kernel<T, C>),
                   kernel_name<T, C>("recursive_column_summaries"), kTileThreads<C>),
        tile_shape(reinterpret_cast<const void*>(&recursive_tiles_final_kernel<T, C>),
                   kernel_name<T, C>("recursive_tiles_final"), kTileThreads<C>),
        tile_shape(reinterpret_cast<const void*>(&recursive_row_carries_kernel<T, C>),
                   kernel_name<T, C>("recursive_row_carries"), job.block.threads())};
    for (const KernelLaunchShape& s : tile_kernels) validate_launch(job.device, s);

    TiledJob<T, C> base{};
    base.f = filter;
    base.border = border_read(job.plan, job.type);
    base.row_tiles = LineTiles::of(job.width, kTile<C>);
    base.column_tiles = LineTiles::of(job.height, kTile<C>);
    base.row_full = tile_transfer(filter, kTile<C>);
    base.row_last = tile_transfer(filter, base.row_tiles.last);
    base.column_full = base.row_full;
    base.column_last = tile_transfer(filter, base.column_tiles.last);
    base.edge_rows = EdgeRows::of(job.height, filter.warmup);
    const int width = job.width, height = job.height, lines = height * C, elements = width * C;
    base.rows.lines = lines;
    base.columns.lines = elements;
    const dim3 tiles(unsigned(base.row_tiles.count), unsigned(base.column_tiles.count));
    const unsigned walkers = unsigned(job.block.threads());
    const dim3 row_walks(unsigned((lines + int(walkers) - 1) / int(walkers)));
    const dim3 column_walks(unsigned((elements + int(walkers) - 1) / int(walkers)));
    check_grid(tiles);
    check_grid(row_walks);
    check_grid(column_walks);
    auto scratch = std::make_shared<RecursiveScratch>();
    l.run = [=](cudaStream_t s, const DeviceImages& d) {
      if (!scratch->rows.bytes()) {
        const auto bytes = [](unsigned long long floats) { return std::size_t(floats) * sizeof(float); };
        scratch->rows = DeviceBuffer(bytes(CarryTable::floats(base.row_tiles.count, lines)),
                                     "the recursive Gaussian's row carries");
        scratch->columns = DeviceBuffer(bytes(CarryTable::floats(base.column_tiles.count, elements)),
                                        "the recursive Gaussian's column carries");
        scratch->edge = DeviceBuffer(bytes((unsigned long long)base.edge_rows.count() * elements),
                                     "the recursive Gaussian's edge rows");
      }
      TiledJob<T, C> j = base;
      j.in = {d.in, d.in_pitch, width, height};
      j.out = {d.out, d.out_pitch, width, height};
      j.rows.base = scratch->rows.as<float>();
      j.columns.base = scratch->columns.as<float>();
      j.edge = scratch->edge.as<float>();
      const dim3 tile_block(unsigned(kTileThreads<C>));
      recursive_row_summaries_kernel<T, C><<<tiles, tile_block, 0, s>>>(j);
      recursive_row_carries_kernel<T, C><<<row_walks, walkers, 0, s>>>(j);
      recursive_column_summaries_kernel<T, C><<<tiles, tile_block, 0, s>>>(j);
      recursive_column_carries_kernel<T, C><<<column_walks, walkers, 0, s>>>(j);
      recursive_tiles_final_kernel<T, C><<<tiles, tile_block, 0, s>>>(j);
    };
    return l;
  });
}

}  // namespace ks::cuda
