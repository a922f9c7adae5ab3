// The "recursive" variant of the gaussian: the recursive (IIR) Gaussian of stencil/recursive_gaussian.hpp, a row
// pass then a column pass, each a causal and an anti-causal recursion over the same input, so a pixel costs the
// same whatever sigma is.
//
// Why this design: a recursion is sequential along its line, so the parallelism is across lines, and each line is
// cut into segments (the image's own pixels serve as a segment's warm-up, exactly as the border extension does
// at the image's ends) so that an 8192^2 image gives some two thousand warps, not 256.
// - Rows: a thread per row would read a row 4 bytes at a time from 32 rows at once. Instead each warp takes 32
//   rows and walks them 32 pixels at a time: the warp loads the 32x32 tile into shared memory (coalesced, border
//   remap included), each lane runs its row's recursion over the tile, the warp stores the tile (coalesced). The
//   causal result goes to a float image; the walk back reads the input again and completes it there.
// - Columns: a thread per element column walks its segment down and back up, its reads coalesced across the
//   warp; the causal result waits in the output (f32) or a float scratch image (u8).
// Full-image traffic: each pass reads its input twice and writes and reads back its causal result, then writes
// its result (5 image transfers a pass), plus each segment's warm-up (about 7 sigma at each end). Nehab et al.'s
// block-parallel formulation (carries between blocks, both passes fused) needs only the two reads and one write
// of the issue's floor; this is the simpler first step (docs/PERF.md).
#include <algorithm>

#include "core/error.hpp"
#include "stencil/cuda/recursive_kernels.cuh"
#include "stencil/cuda/recursive_line.cuh"
#include "stencil/stencil_math.hpp"

namespace ks::cuda {

namespace {

// Warps of the row kernel's blocks: each keeps two tiles of 32 rows x 32 pixels, the input and the result
// (34 KB of shared memory a block with C = 1 or C = 4).
template <int C>
constexpr int kRowWarps = C == 1 ? 4 : 1;
template <int C>
constexpr int kTileStride = 32 * C + 1;  // floats a tile row takes; the +1 spreads a column over the banks
template <int C>
constexpr int kTileFloats = 32 * kTileStride<C>;

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

// The tile's pixels [max(c0, x0), min(c0 + 32, x1)) from (kLoad) or to the float image.
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
                                      RecursiveGaussian f, BorderRead border, int segment) {
  extern __shared__ float tiles[];
  float* samples = tiles + threadIdx.y * 2 * kTileFloats<C>;
  float* result = samples + kTileFloats<C>;
  const int lane = threadIdx.x;
  const int y_base = (blockIdx.y * blockDim.y + threadIdx.y) * 32;
  if (y_base >= in.height) return;  // the whole warp: no __syncwarp waits for it
  const int x0 = blockIdx.x * segment, x1 = min(in.width, x0 + segment);
  // Chunks of 32 pixels aligned on x0, the warm-ups at least f.warmup pixels before x0 and after x1.
  const int chunks_before = (f.warmup + 31) / 32;
  const int first = x0 - 32 * chunks_before, last = x0 + 32 * ((x1 - 1 + f.warmup - x0) / 32);
  const float* my_samples = samples + lane * kTileStride<C>;
  float* my_result = result + lane * kTileStride<C>;

  CausalLine causal[C];
  for (int c0 = first; c0 < x1; c0 += 32) {
    load_input_tile(in, border, samples, y_base, c0);
    __syncwarp();
    for (int i = 0; i < 32; ++i) {
      const int p = c0 + i;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const float x = my_samples[i * C + c];
        if (p == first) causal[c].start(f, x);
        const float y = causal[c].advance(f, x);
        if (p >= x0) my_result[i * C + c] = y;
      }
    }
    __syncwarp();
    if (c0 >= x0) move_float_tile<C, false>(tmp, tmp_pitch, in.height, result, y_base, c0, x0, x1);
    __syncwarp();
  }

  AnticausalLine anticausal[C];
  for (int c0 = last; c0 >= x0; c0 -= 32) {
    load_input_tile(in, border, samples, y_base, c0);
    const bool inside = c0 < x1;
    if (inside) move_float_tile<C, true>(tmp, tmp_pitch, in.height, result, y_base, c0, x0, x1);
    __syncwarp();
    for (int i = 31; i >= 0; --i) {
      const int p = c0 + i;
#pragma unroll
      for (int c = 0; c < C; ++c) {
        const float x = my_samples[i * C + c];
        if (c0 == last && i == 31) anticausal[c].start(f, x);
        const float y = anticausal[c].advance(f, x);
        if (p < x1) my_result[i * C + c] += y;
      }
    }
    __syncwarp();
    if (inside) move_float_tile<C, false>(tmp, tmp_pitch, in.height, result, y_base, c0, x0, x1);
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
                                         RecursiveGaussian f, BorderRead border, int segment) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= out.row_elements()) return;
  const int height = out.height;
  const int y0 = blockIdx.y * segment, y1 = min(height, y0 + segment);
  const auto read = [&](int y) {
    const int yy = remap(y, height, border.mode);
    return yy < 0 ? border.value : tmp[std::size_t(yy) * (tmp_pitch / sizeof(float)) + std::size_t(e)];
  };
  CausalLine down;
  down.start(f, read(y0 - f.warmup));
  for (int y = y0 - f.warmup; y < y0; ++y) down.advance(f, read(y));
#pragma unroll 4
  for (int y = y0; y < y1; ++y) float_row(causal, causal_pitch, y)[e] = down.advance(f, read(y));
  AnticausalLine up;
  up.start(f, read(y1 + f.warmup - 1));
  for (int y = y1 + f.warmup - 1; y >= y1; --y) up.advance(f, read(y));
#pragma unroll 4
  for (int y = y1 - 1; y >= y0; --y)
    out.row(y)[e] = to_pixel<T>(float_row(causal, causal_pitch, y)[e] + up.advance(f, read(y)));
}

// The length of the segments a line of n samples is cut into: long enough that the warm-ups (f.warmup at each
// end) add at most half of a segment's reads, at least 1024 samples, a multiple of 32 (the row kernel's chunks).
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
    throw_usage("the recursive variant runs the gaussian kernel with sigma >= 1", "use separable");
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
    rows_shape.dynamic_shared = sizeof(float) * 2 * kTileFloats<C> * kRowWarps<C>;
    validate_launch(job.device, rows_shape);
    const RecursiveGaussian line = filter;
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
