// The "tiled" variant of the window filters, as a course would write it: each block copies its pixels plus the
// halo into shared memory once, then every thread computes its pixels from there. Every input pixel is read from
// global memory about (bx + 2r)(by + 2r) / (bx by) times instead of (2r+1)^2 times.
// What makes it a good tiled kernel rather than a first one:
//   - coalesced loads, halo included: tile rows are read by consecutive threads, several pixels at a time (one
//     channel: 4 pixels in a word or a float4, the halo rounded out to 4; RGBA: a pixel's word or float4);
//   - every thread busy while the tile fills, with several loads in flight (tile_fill.cuh: the block walks the
//     tile's cells in row-major order; a loop over rows and then columns left most lanes idle and waited for
//     each load in turn);
//   - the border rule only where the tile leaves the image (the remap per element cost more than the filter);
//   - no bank conflicts: the tile's row pitch is padded so the rows one warp reads land on different banks
//     (tiled_design.cpp), and a thread reads its pixel's channels in one access;
//   - the radius known at compile time where it is small (3x3, 5x5, 7x7): the taps unroll into one shared-memory
//     read and one multiply-add each, the weights kernel parameters (constant memory, as a course puts them);
//   - on one-channel images 4 pixels of a column per thread ("thread coarsening"): each tile row a thread reads
//     serves the windows of up to 4 outputs, and the block's fixed costs are shared by 4 times the pixels;
//   - a small tile: (bx + 2r)(4 by + 2r) pixels, so shared memory does not limit the blocks per SM at the usual
//     radii (32x8 blocks, 3x3 u8: 1360 bytes).
// The filters that do not separate run a kernel with several outputs per thread instead (window_multi.cu, and
// the 3x3 register kernel for the u8 laplacian), and the median runs selection networks (median_network.cu): see
// tiled_design.hpp.
#include "core/launch_geometry.hpp"
#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/median_network.cuh"
#include "stencil/cuda/quad_tile.cuh"
#include "stencil/cuda/separable_kernels.cuh"
#include "stencil/cuda/stencil_launch.cuh"
#include "stencil/cuda/window_multi.cuh"
#include "stencil/tiled_design.hpp"

namespace ks::cuda {

namespace {

// A pixel's C channels as one aligned access (a word for 4 u8, a 16-byte vector for 4 floats).
template <class T, int C>
struct alignas(C * sizeof(T)) Pixel {
  T c[C];
};

template <class T, int C>
__device__ __forceinline__ Pixel<T, C> pixel_at(const ImageView<T, C>& in, int x, int y) {
  return reinterpret_cast<const Pixel<T, C>*>(in.row(y))[x];
}

template <class T, int C>
__device__ __forceinline__ Pixel<T, C> pixel_through_border(const ImageView<T, C>& in, int x, int y,
                                                            const BorderRead& border) {
  Pixel<T, C> p;
#pragma unroll
  for (int c = 0; c < C; ++c) p.c[c] = border.read(in, x, y, c);
  return p;
}

// The window's weights as a kernel parameter when the radius is known at compile time: the multiply-adds read
// them from the constant bank as operands, no load at all (a course would put them in __constant__ memory; a
// parameter does the same without a copy per launch that concurrent launches would have to share).
template <class A, int R>
struct LessonWeights {
  static constexpr int kTaps = R > 0 ? (2 * R + 1) * (2 * R + 1) : 1;
  A a[kTaps], b[kTaps];  // filter a, and a gradient's b
};

// The tile: (bx + 2 hx) x (by + 2 ry) pixels whose first is (x0, y0). One channel: in whole quads (4 u8 in a
// word, 4 floats in a float4: quad_tile.cuh), hx a multiple of 4 and the block's width too, so a thread loads 4
// pixels at once; RGBA: a pixel (a word or a float4) per load. Either way consecutive threads take consecutive
// loads of a row, and the border rule runs only where the tile leaves the image.
template <class T, int C>
__device__ __forceinline__ void load_lesson_tile(unsigned char* smem, int pitch, const ImageView<T, C>& in, int x0,
                                                 int y0, int tw, int th, bool quads, const BorderRead& border) {
  if constexpr (C == 1) {
    if (quads) {
      load_quad_tile(smem, pitch, in, x0, y0, tw / kQuad, th, border);
      return;
    }
  }
  if (x0 >= 0 && y0 >= 0 && x0 + tw <= in.width && y0 + th <= in.height)
    fill_tile<Pixel<T, C>, 2>(smem, pitch, tw, th, [&, origin = in.base + unsigned(y0) * in.pitch](int t, int x) {
      return reinterpret_cast<const Pixel<T, C>*>(origin + unsigned(t) * in.pitch)[x0 + x];
    });
  else
    fill_tile<Pixel<T, C>, 1>(smem, pitch, tw, th,
                              [&](int t, int x) { return pixel_through_border(in, x0 + x, y0 + t, border); });
}

// Adds one window row's taps (weights row dy) to the sums of one output; pixel(dx) is the row's pixel dx.
template <class T, int C, int KIND, int R, class Pixels>
__device__ __forceinline__ void add_window_row(Acc<T> (&sa)[C], Acc<T> (&sb)[C], const LessonWeights<Acc<T>, R>& wt,
                                               const Acc<T>* wa, const Acc<T>* wb, int dy, int w,
                                               const Pixels& pixel) {
  constexpr int kUnroll = R > 0 ? 2 * R + 1 : 1;  // run-time radii: a plain loop
  // Window rows summed separately, then added (see naive_window.cu: f32 rounding).
  Acc<T> ra[C] = {}, rb[C] = {};
#pragma unroll kUnroll
  for (int dx = 0; dx < w; ++dx) {
    // R > 0: a constant-bank operand; otherwise the same address in every thread (one broadcast load per warp).
    Acc<T> a, b = Acc<T>(0);
    if constexpr (R > 0) {
      a = wt.a[dy * w + dx];
      if constexpr (KIND == kGradient) b = wt.b[dy * w + dx];
    } else {
      a = wa[dy * w + dx];
      if constexpr (KIND == kGradient) b = wb[dy * w + dx];
    }
    const Pixel<T, C> p = pixel(dx);
    Acc<T> v[C];
#pragma unroll
    for (int c = 0; c < C; ++c) v[c] = Acc<T>(p.c[c]);
    add_tap<KIND>(ra, rb, a, b, v);
  }
  add_row(sa, sb, ra, rb);
}

// At most 32 registers (2 blocks of 1024 threads per SM): whatever the block shape, registers never keep the SM
// below full occupancy (the RGBA kernels asked for 36-41 and lost a quarter of the warps at 16x16).
// Each thread computes K pixels of a column (one channel: 4, tiled_design.hpp; RGBA: 1). R > 0: both radii are
// R, known at compile time (1, 2, 3: box, sobel, the small gaussians): the loops unroll, each tile row is read
// once for the K outputs whose windows hold it, and a tap costs one multiply-add with its weight in `wt` (a
// constant-bank operand). R == 0: any radii, each output's window read from the tile in loops over rx and ry,
// the weights from global memory (wa, wb).
// Before (one pixel per thread, run-time radius): a 3x3 u8 box cost about 240 instructions per pixel (loop
// counters, a global weight load per tap, the address of every tile load; docs/PERF.md).
template <class T, int C, int KIND, int R, int K>
__global__ void __launch_bounds__(1024, 2)
    tiled_window_kernel(ImageView<T, C> in, ImageView<T, C> out, LessonWeights<Acc<T>, R> wt,
                        const Acc<T>* __restrict__ wa, const Acc<T>* __restrict__ wb, int rx_, int ry_, int hx,
                        int pitch, bool quads, BorderRead border, FinishParams fp) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int rx = R > 0 ? R : rx_, ry = R > 0 ? R : ry_;
  const int bx = int(blockDim.x), by = int(blockDim.y);
  const int tw = bx + 2 * hx, th = by * K + 2 * ry;
  const int x0 = int(blockIdx.x) * bx - hx, y0 = int(blockIdx.y) * by * K - ry;  // the tile's first pixel

  // 1. The tile, loaded once by the whole block.
  load_lesson_tile(smem, pitch, in, x0, y0, tw, th, quads, border);
  __syncthreads();

  // 2. The windows, from shared memory.
  const int x = int(blockIdx.x) * bx + int(threadIdx.x);
  const int y = (int(blockIdx.y) * by + int(threadIdx.y)) * K;  // the thread's first row
  if (x >= in.width || y >= in.height) return;
  const int w = 2 * rx + 1;
  // The first window's first pixel in the tile: the thread's first row, hx - rx pixels right of its column.
  const unsigned char* corner =
      smem + int(threadIdx.y) * K * pitch + (int(threadIdx.x) + hx - rx) * int(sizeof(Pixel<T, C>));
  auto tile_row = [&](int t) { return reinterpret_cast<const Pixel<T, C>*>(corner + t * pitch); };
  Acc<T> sa[K][C] = {}, sb[K][C] = {};
  if constexpr (R > 0) {
#pragma unroll
    for (int t = 0; t < 2 * R + K; ++t) {
      Pixel<T, C> p[2 * R + 1];
#pragma unroll
      for (int dx = 0; dx <= 2 * R; ++dx) p[dx] = tile_row(t)[dx];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const int dy = t - k;  // this row's place in output k's window
        if (dy >= 0 && dy <= 2 * R)
          add_window_row<T, C, KIND, R>(sa[k], sb[k], wt, wa, wb, dy, w, [&](int dx) { return p[dx]; });
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k)
      for (int dy = 0; dy <= 2 * ry; ++dy) {
        const Pixel<T, C>* trow = tile_row(k + dy);
        add_window_row<T, C, KIND, R>(sa[k], sb[k], wt, wa, wb, dy, w, [&](int dx) { return trow[dx]; });
      }
  }
  auto store = [&](const auto& finish_one) {
    unsigned char* row = reinterpret_cast<unsigned char*>(out.row(y));
#pragma unroll
    for (int k = 0; k < K; ++k, row += out.pitch) {
      if (y + k >= in.height) return;
      const Pixel<T, C> src = tile_row(k + ry)[rx];
      Pixel<T, C> r;
#pragma unroll
      for (int c = 0; c < C; ++c) r.c[c] = finish_one(sa[k][c], sb[k][c], src.c[c]);
      reinterpret_cast<Pixel<T, C>*>(row)[x] = r;
    }
  };
  // u8 linear: the divider's mode tested once for the K outputs (the float mode: box, gaussian).
  if constexpr (KIND == kLinear && sizeof(T) == 1)
    if (fp.div.mode == U8Divider::Float) {
      store([&](Acc<T> a, Acc<T>, T) { return fp.div.float_mode(a); });
      return;
    }
  store([&](Acc<T> a, Acc<T> b, T src) { return finish<KIND>(a, b, src, fp); });
}

template <class T, int C, int KIND, int R, int K>
StencilLaunch lesson_launch(const StencilJob& job, const TiledDesign& design) {
  using A = Acc<T>;
  const int rx = job.plan.radius_x(), ry = job.plan.radius_y();
  StencilLaunch l;
  l.shape.func = reinterpret_cast<const void*>(&tiled_window_kernel<T, C, KIND, R, K>);
  l.shape.name = kernel_name<T, C>("tiled_window", finish_name(KIND));
  l.shape.block = block_dim(job.block);
  l.shape.dynamic_shared = design.shared_bytes;
  validate_launch(job.device, l.shape);
  LessonWeights<A, R> wt{};
  const A* wa = nullptr;
  const A* wb = nullptr;
  if constexpr (R > 0) {
    const std::vector<A> w = plan_window_weights<A>(job.plan);
    constexpr int n = LessonWeights<A, R>::kTaps;
    for (int i = 0; i < n; ++i) {
      wt.a[i] = w[std::size_t(i)];
      wt.b[i] = KIND == kGradient ? w[std::size_t(n + i)] : A(0);
    }
  } else {
    wa = upload_window_weights<A>(l, job.plan);
    wb = KIND == kGradient ? wa + window_taps(job.plan) : wa;
  }
  const BorderRead br = border_read(job.plan, job.type);
  const FinishParams fp = finish_params(job.plan);
  const dim3 block = l.shape.block;
  // The grid the launch overlay draws (core/launch_geometry.hpp): K pixels of a column per thread.
  LaunchGeometry geo = window_launch(job.width, job.height, job.block, rx, ry, true);
  geo.cells_y = K;
  const dim3 grid(unsigned(geo.grid_x()), unsigned(geo.grid_y()));
  check_grid(grid);
  const std::size_t smem = design.shared_bytes;
  const int pitch = int(design.row_pitch), hx = design.halo_x;
  const bool quads = design.quad_loads;
  l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& d) {
    const ImageView<T, C> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
    tiled_window_kernel<T, C, KIND, R, K>
        <<<grid, block, smem, s>>>(in, out, wt, wa, wb, rx, ry, hx, pitch, quads, br, fp);
  };
  return l;
}

template <class T, int C, int KIND, int R>
StencilLaunch lesson_launch_rows(const StencilJob& job, const TiledDesign& design) {
  if constexpr (C == 1) {
    if (design.cells_y == kLessonRows) return lesson_launch<T, C, KIND, R, kLessonRows>(job, design);
  }
  if (design.cells_y != 1) throw Error(ErrorKind::Internal, "tiled_window: 1 or kLessonRows rows per thread");
  return lesson_launch<T, C, KIND, R, 1>(job, design);
}

StencilLaunch make_lesson_launch(const StencilJob& job, const TiledDesign& design) {
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    return dispatch_finish(job.plan, [&]<int KIND>() {
      const int rx = job.plan.radius_x(), ry = job.plan.radius_y();
      switch (rx == ry ? rx : 0) {
        case 1: return lesson_launch_rows<T, C, KIND, 1>(job, design);
        case 2: return lesson_launch_rows<T, C, KIND, 2>(job, design);
        case 3: return lesson_launch_rows<T, C, KIND, 3>(job, design);
        default: return lesson_launch_rows<T, C, KIND, 0>(job, design);
      }
    });
  });
}

}  // namespace

StencilLaunch make_tiled_launch(const StencilJob& job) {
  const TiledDesign design = tiled_design(job.plan, job.type, job.channels, job.block);
  switch (design.kernel) {
    case TiledKernel::Median: return make_median_network_launch(job);
    case TiledKernel::WindowMulti: return make_window_multi_launch(job, design);
    case TiledKernel::Laplacian3x3: return make_laplacian3_packed_launch(job);
    default: return make_lesson_launch(job, design);
  }
}

}  // namespace ks::cuda
