// The "tiled" variant of linear filters that do not separate (laplacian, convolve with a matrix of rank > 1), one
// channel, windows up to 15x15: the tile in shared memory (quad_tile.cuh: whole words or float4, coalesced, the
// border rule only at the image's edge), each thread 4 outputs of a row (one u8 word or one float4) and a few
// rows down, the window's weights in shared memory too. A row of taps reads the 4 + 2 rx elements it needs once
// (aligned words or float4 around the thread's quad) and serves all 4 outputs from registers: per output and tap
// one multiply-add, where the lesson kernel (tiled_window.cu) also pays a shared-memory read and a weight load.
// The horizontal radius is a template parameter (0..7), so those loops unroll into registers.
#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/quad_tile.cuh"
#include "stencil/cuda/window_multi.cuh"
#include "stencil/tiled_design.hpp"

namespace ks::cuda {

namespace {

// Element o (relative to the thread's quad, -RX <= o < 4 + RX) of a u8 tile row.
__device__ __forceinline__ std::int32_t tile_byte(const unsigned char* quad_row, int o) {
  const int k = o >= 0 ? o / 4 : (o - 3) / 4;  // folded at compile time: o is a constant after unrolling
  const std::uint32_t w = *reinterpret_cast<const std::uint32_t*>(quad_row + 4 * k);
  return std::int32_t((w >> (8 * (o - 4 * k))) & 0xffu);
}

// Elements -RX .. 3 + RX of a tile row around the thread's quad (v[o + RX] = element o).
template <class T, int RX>
__device__ __forceinline__ void tile_row_elements(const unsigned char* quad_row, Acc<T> (&v)[4 + 2 * RX]) {
  if constexpr (sizeof(T) == 1) {
    // u8: the words are loaded once each (the compiler merges the loads of one word's four elements).
#pragma unroll
    for (int o = 0; o < 4 + 2 * RX; ++o) v[o] = tile_byte(quad_row, o - RX);
  } else {
    // f32: whole float4, consecutive in a warp, so a warp's load is conflict-free. Scalar loads of the floats
    // around the quad (lanes 16 bytes apart) hit each bank 4 times (docs/PERF.md).
    constexpr int k0 = -((RX + 3) / 4), k1 = (3 + RX) / 4;  // the quads holding elements -RX and 3 + RX
    float4 q[k1 - k0 + 1];
#pragma unroll
    for (int k = k0; k <= k1; ++k) q[k - k0] = reinterpret_cast<const float4*>(quad_row)[k];
#pragma unroll
    for (int o = -RX; o < 4 + RX; ++o) {
      const float4& f = q[(o - 4 * k0) / 4];
      const int i = (o - 4 * k0) % 4;
      v[o + RX] = i == 0 ? f.x : i == 1 ? f.y : i == 2 ? f.z : f.w;
    }
  }
}

template <class T, int RX>
__global__ void window_multi_kernel(ImageView<T, 1> in, ImageView<T, 1> out, const Acc<T>* __restrict__ weights,
                                    int ry, int pitch, int rows_per_thread, int weight_offset, BorderRead border,
                                    FinishParams fp) {
  extern __shared__ __align__(16) unsigned char smem[];
  constexpr int kHalo = (RX + kQuad - 1) / kQuad;  // quads of halo on each side
  constexpr int kW = 2 * RX + 1;
  const int bx = int(blockDim.x), by = int(blockDim.y);
  const int e_block = int(blockIdx.x) * bx * kQuad;
  const int y_block = int(blockIdx.y) * by * rows_per_thread;
  const int tile_rows = by * rows_per_thread + 2 * ry;
  Acc<T>* w = reinterpret_cast<Acc<T>*>(smem + weight_offset);
  for (int i = int(threadIdx.y * blockDim.x + threadIdx.x); i < kW * (2 * ry + 1); i += bx * by) w[i] = weights[i];
  load_quad_tile(smem, pitch, in, e_block - kHalo * kQuad, y_block - ry, bx + 2 * kHalo, tile_rows, border);
  __syncthreads();

  const int x0 = e_block + int(threadIdx.x) * kQuad;
  if (x0 >= in.row_elements()) return;
  const int t0 = int(threadIdx.y) * rows_per_thread;
  const unsigned char* column = smem + (int(threadIdx.x) + kHalo) * int(sizeof(Quad<T>));
  for (int k = 0; k < rows_per_thread; ++k) {
    const int y = y_block + t0 + k;
    if (y >= in.height) return;
    // Window rows summed on their own, then added (as naive_window.cu: f32 rounding grows with the row length
    // plus the row count, not their product).
    Acc<T> sum[4] = {};
    for (int dy = 0; dy <= 2 * ry; ++dy) {
      const unsigned char* row = column + (t0 + k + dy) * pitch;
      Acc<T> v[4 + 2 * RX];
      tile_row_elements<T, RX>(row, v);
      Acc<T> part[4] = {};
#pragma unroll
      for (int dx = 0; dx < kW; ++dx) {
        const Acc<T> a = w[dy * kW + dx];  // one broadcast read per warp
#pragma unroll
        for (int j = 0; j < 4; ++j) part[j] += a * v[j + dx];
      }
#pragma unroll
      for (int j = 0; j < 4; ++j) sum[j] += part[j];
    }
    T r[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) r[j] = finish<kLinear>(sum[j], Acc<T>(0), T(0), fp);
    store_quad(out, x0, y, r);
  }
}

template <class T, int RX>
StencilLaunch window_multi_launch(const StencilJob& job, const TiledDesign& design) {
  StencilLaunch l;
  l.shape.func = reinterpret_cast<const void*>(&window_multi_kernel<T, RX>);
  l.shape.name = design.kernel_name;
  l.shape.block = block_dim(job.block);
  l.shape.dynamic_shared = design.shared_bytes;
  validate_launch(job.device, l.shape);
  const Acc<T>* wa = upload_window_weights<Acc<T>>(l, job.plan);
  const int ry = job.plan.radius_y(), rows = design.cells_y, pitch = int(design.row_pitch);
  const int weight_offset = int(design.shared_bytes - design.weight_bytes);
  const BorderRead br = border_read(job.plan, job.type);
  const FinishParams fp = finish_params(job.plan);
  const dim3 block = l.shape.block;
  const dim3 grid(ceil_div(job.width, static_cast<long long>(job.block.x) * design.cells_x),
                  ceil_div(job.height, static_cast<long long>(job.block.y) * rows));
  check_grid(grid);
  const std::size_t smem = design.shared_bytes;
  l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& d) {
    const ImageView<T, 1> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
    window_multi_kernel<T, RX><<<grid, block, smem, s>>>(in, out, wa, ry, pitch, rows, weight_offset, br, fp);
  };
  return l;
}

template <class T>
StencilLaunch window_multi_for(const StencilJob& job, const TiledDesign& design) {
  switch (job.plan.radius_x()) {
    case 0: return window_multi_launch<T, 0>(job, design);
    case 1: return window_multi_launch<T, 1>(job, design);
    case 2: return window_multi_launch<T, 2>(job, design);
    case 3: return window_multi_launch<T, 3>(job, design);
    case 4: return window_multi_launch<T, 4>(job, design);
    case 5: return window_multi_launch<T, 5>(job, design);
    case 6: return window_multi_launch<T, 6>(job, design);
    default: return window_multi_launch<T, 7>(job, design);
  }
}

}  // namespace

StencilLaunch make_window_multi_launch(const StencilJob& job, const TiledDesign& design) {
  if (job.channels != 1 || job.plan.radius_x() > kWindowMultiMaxRadius)
    throw Error(ErrorKind::Internal, "window_multi: one channel and radius <= 7 only (tiled_design decides)");
  return job.type == ElemType::U8 ? window_multi_for<std::uint8_t>(job, design) : window_multi_for<float>(job, design);
}

}  // namespace ks::cuda
