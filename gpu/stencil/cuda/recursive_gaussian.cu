// The "recursive" variant of the gaussian: the recursive (IIR) Gaussian of stencil/recursive_gaussian.hpp, a row
// pass then a column pass, each a causal then an anti-causal third-order recursion, so a pixel costs the same
// whatever sigma is.
//
// Why this design: the recursion is sequential along a line, so the parallelism is across lines, and each line
// is cut into segments (the image's own pixels serve as a segment's warm-up and tail, exactly as the border
// extension does at the image's ends) so that an 8192^2 image gives some two thousand warps, not 256.
// - Rows: a thread per row would read a row's pixels 4 bytes at a time from 32 rows at once. Instead each warp
//   takes 32 rows and walks them 32 pixels at a time: the warp loads the 32x32 tile into shared memory (coalesced,
//   border remap included), each lane runs its row's recursion over the tile, the warp stores it (coalesced). The
//   causal result goes to a float image, which the anti-causal walk back reads and overwrites.
// - Columns: a thread per element column walks its segment downward, reads coalesced across the warp; the causal
//   result is kept in the output (f32) or a float scratch (u8), read back on the walk up.
// Full-image traffic: the row pass reads the input, writes and reads back the float image, writes it (4 image
// transfers), the column pass the same (4), plus each segment's warm-up and tail (about 10 sigma a segment end).
// Nehab et al.'s block-parallel formulation (carries between blocks, both directions fused) needs only the two
// reads and one write of the issue's floor; this is the simpler first step (docs/PERF.md has the figures).
#include <algorithm>

#include "core/error.hpp"
#include "stencil/cuda/recursive_kernels.cuh"
#include "stencil/cuda/recursive_line.cuh"
#include "stencil/recursive_gaussian.hpp"
#include "stencil/stencil_math.hpp"

namespace ks::cuda {

namespace {

// Warps of the row kernel's blocks: tiles of 32 rows x 32 pixels (33 KB of shared memory with C = 1 or C = 4).
template <int C>
constexpr int kRowWarps = C == 1 ? 8 : 2;
template <int C>
constexpr int kTileStride = 32 * C + 1;  // floats a tile row takes; the +1 spreads a column over the banks

__device__ __forceinline__ float* float_row(unsigned char* base, std::size_t pitch, int y) {
  return reinterpret_cast<float*>(base + std::size_t(y) * pitch);
}

// Pixels [c0, c0 + 32) of the warp's rows [y_base, y_base + 32) into its tile (pixels outside the image through
// the border; rows past the image are left as they are: their lanes' results are never stored).
template <class T, int C>
__device__ __forceinline__ void load_input_tile(const ImageView<T, C>& in, const BorderRead& border, float* tile,
                                                int y_base, int c0) {
  const int lane = threadIdx.x;
  for (int r = 0; r < 32; ++r) {
    const int y = y_base + r;
    if (y >= in.height) break;
    const T* row = in.row(y);
#pragma unroll
    for (int j = 0; j < C; ++j) {
      const int e = lane + 32 * j, px = c0 + e / C;
      const int xx = remap(px, in.width, border.mode);
      tile[r * kTileStride<C> + e] = xx < 0 ? border.value : float(row[xx * C + e % C]);
    }
  }
}

// The tile's pixels [max(c0, x0), min(c0 + 32, x1)) from (load) or to (store) the float image.
template <int C, bool kLoad>
__device__ __forceinline__ void move_float_tile(unsigned char* base, std::size_t pitch, int height, float* tile,
                                                int y_base, int c0, int x0, int x1) {
  const int lane = threadIdx.x;
  for (int r = 0; r < 32; ++r) {
    const int y = y_base + r;
    if (y >= height) break;
    float* row = float_row(base, pitch, y);
#pragma unroll
    for (int j = 0; j < C; ++j) {
      const int e = lane + 32 * j, px = c0 + e / C;
      if (px < x0 || px >= x1) continue;
      if (kLoad)
        tile[r * kTileStride<C> + e] = row[c0 * C + e];
      else
        row[c0 * C + e] = tile[r * kTileStride<C> + e];
    }
  }
}

template <class T, int C>
__global__ void recursive_rows_kernel(ImageView<T, C> in, unsigned char* tmp, std::size_t tmp_pitch,
                                      RecursiveLine f, BorderRead border, int segment) {
  extern __shared__ float tiles[];
  float* tile = tiles + threadIdx.y * 32 * kTileStride<C>;
  const int lane = threadIdx.x;
  const int y_base = (blockIdx.y * blockDim.y + threadIdx.y) * 32;
  if (y_base >= in.height) return;  // the whole warp: no __syncwarp waits for it
  const int x0 = blockIdx.x * segment, x1 = min(in.width, x0 + segment);
  // Chunks of 32 pixels aligned on x0, from a warm-up of at least f.warmup pixels to a tail of f.warmup + 3.
  const int first = x0 - 32 * ((f.warmup + 31) / 32), end = x1 + f.warmup + 3;
  float* mine = tile + lane * kTileStride<C>;
  LineState st[C];

  for (int c0 = first; c0 < end; c0 += 32) {
    load_input_tile(in, border, tile, y_base, c0);
    __syncwarp();
    for (int i = 0; i < 32; ++i) {
      const int p = c0 + i;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const float x = mine[i * C + c];
        if (p == first) st[c].start(x);
        const float w = st[c].advance(f, x);
        if (p >= x0 && p < x1)
          mine[i * C + c] = w;
        else if (p >= x1 && p < end)
          st[c].accumulate(f, p - x1, w);
      }
    }
    __syncwarp();
    if (c0 + 32 > x0 && c0 < x1) move_float_tile<C, false>(tmp, tmp_pitch, in.height, tile, y_base, c0, x0, x1);
    __syncwarp();
  }

#pragma unroll
  for (int c = 0; c < C; ++c) st[c].start_anticausal();
  for (int c0 = x0 + 32 * ((x1 - 1 - x0) / 32); c0 >= x0; c0 -= 32) {
    move_float_tile<C, true>(tmp, tmp_pitch, in.height, tile, y_base, c0, x0, x1);
    __syncwarp();
    for (int i = 31; i >= 0; --i) {
      if (c0 + i >= x1) continue;
#pragma unroll
      for (int c = 0; c < C; ++c) mine[i * C + c] = st[c].advance(f, mine[i * C + c]);
    }
    __syncwarp();
    move_float_tile<C, false>(tmp, tmp_pitch, in.height, tile, y_base, c0, x0, x1);
    __syncwarp();
  }
}

template <class T>
__device__ __forceinline__ T to_pixel(float v) {
  if constexpr (sizeof(T) == 1) {
    return saturate_u8(v);
  } else {
    return v;
  }
}

// `causal` keeps the causal result; for f32 it is the output itself (each thread reads an element back before
// it writes it), so neither it nor `out` is __restrict__.
template <class T, int C>
__global__ void recursive_columns_kernel(const float* __restrict__ tmp, std::size_t tmp_pitch,
                                         unsigned char* causal, std::size_t causal_pitch, ImageView<T, C> out,
                                         RecursiveLine f, BorderRead border, int segment) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= out.row_elements()) return;
  const int height = out.height;
  const int y0 = blockIdx.y * segment, y1 = min(height, y0 + segment);
  const auto read = [&](int y) {
    const int yy = remap(y, height, border.mode);
    return yy < 0 ? border.value
                  : tmp[std::size_t(yy) * (tmp_pitch / sizeof(float)) + std::size_t(e)];
  };
  LineState st;
  st.start(read(y0 - f.warmup));
  for (int y = y0 - f.warmup; y < y0; ++y) st.advance(f, read(y));
#pragma unroll 4
  for (int y = y0; y < y1; ++y) float_row(causal, causal_pitch, y)[e] = st.advance(f, read(y));
  for (int t = 0; t < f.warmup + 3; ++t) st.accumulate(f, t, st.advance(f, read(y1 + t)));
  st.start_anticausal();
#pragma unroll 4
  for (int y = y1 - 1; y >= y0; --y) out.row(y)[e] = to_pixel<T>(st.advance(f, float_row(causal, causal_pitch, y)[e]));
}

// Segments a line of n samples is cut into: long enough that the warm-up and tail (f.warmup each) add at most
// half of a segment's reads, at least 1024 samples, a multiple of 32 (the row kernel's chunks).
int segment_length(int n, const RecursiveGaussian& f) {
  const int length = std::max(1024, 4 * f.warmup);
  return std::min(32 * ((length + 31) / 32), 32 * ((n + 31) / 32));
}

// The float images the passes keep between them, made on the launch's first run (not for a launch that is only
// validated or asked about its occupancy) and kept for its later runs.
struct RecursiveScratch {
  DeviceBuffer rows;    // the row pass's result, float
  DeviceBuffer causal;  // the column pass's causal result (u8 only: f32 keeps it in the output)
  std::size_t pitch = 0;
};

}  // namespace

StencilLaunch make_recursive_launch(const StencilJob& job) {
  if (job.plan.gaussian_sigma < kRecursiveMinSigma)
    throw_usage("the recursive variant runs the gaussian kernel with sigma >= 0.5", "use separable");
  const RecursiveGaussian filter = recursive_gaussian(job.plan.gaussian_sigma);
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    StencilLaunch l;
    l.shape.func = reinterpret_cast<const void*>(&recursive_columns_kernel<T, C>);
    l.shape.name = kernel_name<T, C>("recursive_columns");
    l.shape.block = dim3(unsigned(job.block.threads()));  // a thread per element column
    validate_launch(job.device, l.shape);
    KernelLaunchShape rows_shape;
    rows_shape.func = reinterpret_cast<const void*>(&recursive_rows_kernel<T, C>);
    rows_shape.name = kernel_name<T, C>("recursive_rows");
    rows_shape.block = dim3(32, kRowWarps<C>);
    rows_shape.dynamic_shared = sizeof(float) * 32 * kTileStride<C> * kRowWarps<C>;
    validate_launch(job.device, rows_shape);

    l.weights = std::make_shared<DeviceBuffer>(upload_array(filter.tail.data(), filter.tail.size(), "filter taps"));
    const RecursiveLine line{filter.b, filter.a1, filter.a2, filter.a3, filter.warmup, l.weights->as<float>()};
    const BorderRead br = border_read(job.plan, job.type);
    const int width = job.width, height = job.height, elements = width * C;
    const int row_segment = segment_length(width, filter), column_segment = segment_length(height, filter);
    const dim3 rows_grid(unsigned((width + row_segment - 1) / row_segment),
                         unsigned((height + 32 * kRowWarps<C> - 1) / (32 * kRowWarps<C>)));
    const dim3 columns_grid(unsigned((elements + int(l.shape.block.x) - 1) / int(l.shape.block.x)),
                            unsigned((height + column_segment - 1) / column_segment));
    check_grid(rows_grid);
    check_grid(columns_grid);
    const dim3 rows_block = rows_shape.block, columns_block = l.shape.block;
    const std::size_t rows_shared = rows_shape.dynamic_shared;
    auto scratch = std::make_shared<RecursiveScratch>();
    l.run = [=](cudaStream_t s, const DeviceImages& d) {
      if (!scratch->pitch) {
        scratch->pitch = 256 * ((std::size_t(elements) * sizeof(float) + 255) / 256);
        scratch->rows = DeviceBuffer(scratch->pitch * std::size_t(height), "the recursive Gaussian's row pass");
        if (sizeof(T) == 1)
          scratch->causal = DeviceBuffer(scratch->pitch * std::size_t(height), "the recursive Gaussian's columns");
      }
      const ImageView<T, C> in{d.in, d.in_pitch, width, height}, out{d.out, d.out_pitch, width, height};
      auto* rows = scratch->rows.as<unsigned char>();
      recursive_rows_kernel<T, C><<<rows_grid, rows_block, rows_shared, s>>>(in, rows, scratch->pitch, line, br,
                                                                               row_segment);
      unsigned char* causal = sizeof(T) == 1 ? scratch->causal.as<unsigned char>() : d.out;
      const std::size_t causal_pitch = sizeof(T) == 1 ? scratch->pitch : d.out_pitch;
      recursive_columns_kernel<T, C><<<columns_grid, columns_block, 0, s>>>(
          reinterpret_cast<const float*>(rows), scratch->pitch, causal, causal_pitch, out, line, br, column_segment);
    };
    return l;
  });
}

}  // namespace ks::cuda
