// The "separable" variant for filters of at most 3x3 (box radius 1, Sobel, small Gaussians): memory-bound, so
// built around the memory traffic rather than shared memory.
// - Each thread owns a slice of a row (8 u8 or 4 f32 elements): one vector load and one vector store per row.
// - It walks down a strip of rows keeping the three input rows of its window in registers, so each input row is
//   loaded once per thread, not three times.
// - Column sums are horizontal neighbours' business: the C elements either side come from the adjacent lanes
//   by warp shuffle. Lanes are grouped (G lanes, G = 8, 16 or 32); the two outer lanes of a group only supply
//   halo, the G-2 inner ones write output, and groups overlap by two lanes' worth of elements.
// Sums follow the contract: exact int32 for u8 (row pass then column pass give the same integer as the window),
// float for f32.
#include <algorithm>
#include <cmath>

#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/separable_kernels.cuh"
#include "stencil/tiled_design.hpp"
#include "stencil/cuda/row_slices.cuh"

namespace ks::cuda {

namespace {

template <class A>
struct Taps3 {
  A ax[3], ay[3], bx[3], by[3];  // filter a (and b for the gradient), centred: index 1 is the middle tap
};

template <class T, int C, int KIND>
struct Strip3 {
  static constexpr int V = kSliceElems<T>;
  using A = Acc<T>;
  using S = Slice<T>;
  ImageView<T, C> in, out;
  Taps3<A> w;  // by value: a reference to a kernel parameter would force a copy to local memory
  FinishParams fp;
  int group, e0;
  bool writes;  // this lane writes output (an inner lane inside the image)

  // Output row y from input rows y-1 (p), y (c), y+1 (n).
  __device__ __forceinline__ void row(const S& p, const S& c, const S& n, int y) const {
    A va[V], vb[V];
#pragma unroll
    for (int i = 0; i < V; ++i) {
      const A pv = element(p, i), cv = element(c, i), nv = element(n, i);
      va[i] = w.ay[0] * pv + w.ay[1] * cv + w.ay[2] * nv;
      if constexpr (KIND == kGradient) vb[i] = w.by[0] * pv + w.by[1] * cv + w.by[2] * nv;
    }
    // The neighbours' edge columns; every lane of the warp takes part, writers or not.
    A la[C], ra[C], lb[C], rb[C];
#pragma unroll
    for (int k = 0; k < C; ++k) {
      la[k] = __shfl_up_sync(0xffffffffu, va[V - C + k], 1, group);
      ra[k] = __shfl_down_sync(0xffffffffu, va[k], 1, group);
      if constexpr (KIND == kGradient) {
        lb[k] = __shfl_up_sync(0xffffffffu, vb[V - C + k], 1, group);
        rb[k] = __shfl_down_sync(0xffffffffu, vb[k], 1, group);
      }
    }
    if (!writes || y >= in.height) return;
    // The u8 box and its kin divide by a small divisor: test the divider's mode once per row, not per pixel.
    if constexpr (KIND == kLinear && sizeof(T) == 1) {
      if (fp.div.mode == U8Divider::Float) {
        store(y, va, vb, la, ra, lb, rb, c, [&](A sa, A, T) { return fp.div.float_mode(sa); });
        return;
      }
    }
    store(y, va, vb, la, ra, lb, rb, c, [&](A sa, A sb, T src) { return finish<KIND>(sa, sb, src, fp); });
  }

  // Row pass over the column sums (own, and the neighbours' edges), finishing, one vector store.
  template <class F>
  __device__ __forceinline__ void store(int y, const A (&va)[V], const A (&vb)[V], const A (&la)[C],
                                        const A (&ra)[C], const A (&lb)[C], const A (&rb)[C], const S& c,
                                        F finish_one) const {
    T result[V];
#pragma unroll
    for (int i = 0; i < V; ++i) {
      const A left_a = i >= C ? va[i - C] : la[i], right_a = i + C < V ? va[i + C] : ra[i + C - V];
      const A sa = w.ax[0] * left_a + w.ax[1] * va[i] + w.ax[2] * right_a;
      A sb = A(0);
      if constexpr (KIND == kGradient) {
        const A left_b = i >= C ? vb[i - C] : lb[i], right_b = i + C < V ? vb[i + C] : rb[i + C - V];
        sb = w.bx[0] * left_b + w.bx[1] * vb[i] + w.bx[2] * right_b;
      }
      result[i] = finish_one(sa, sb, T(element(c, i)));
    }
    T* orow = out.row(y);
    if (e0 + V <= out.row_elements()) {
      *reinterpret_cast<S*>(orow + e0) = pack_slice(result);
    } else {
#pragma unroll
      for (int i = 0; i < V; ++i)
        if (e0 + i < out.row_elements()) orow[e0 + i] = result[i];
    }
  }
};

// Rows loaded ahead of the one being computed: the loads of the next rows are in flight while this one is
// computed (one load per thread in flight left the u8 kernel at a third of the copy bandwidth).
constexpr int kRowsAhead = 3;

template <class T, int C, int KIND>
__global__ void __launch_bounds__(1024)
    separable3_kernel(ImageView<T, C> in, ImageView<T, C> out, Taps3<Acc<T>> w, int group, int rows_per_thread,
                      BorderRead border, FinishParams fp) {
  constexpr int V = kSliceElems<T>;
  const int lane = threadIdx.x & (group - 1);
  const int g = blockIdx.x * (blockDim.x / group) + threadIdx.x / group;
  const int e0 = (g * (group - 2) + lane - 1) * V;
  const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * rows_per_thread;
  const int n = rows_per_thread;
  const Strip3<T, C, KIND> s{in, out, w, fp, group, e0,
                             lane >= 1 && lane <= group - 2 && e0 < in.row_elements()};
  // No early exit anywhere: the shuffles need every lane of the warp, so lanes past the image's right or bottom
  // edge run the same loop (reading border-remapped pixels) and only skip the stores.
  // rows[i] holds input row y - 1 + i for the output row y being computed; rows past y0 + n are not needed.
  constexpr int kWindow = 3 + kRowsAhead;
  Slice<T> rows[kWindow];
#pragma unroll
  for (int i = 0; i < kWindow - 1; ++i) rows[i] = i <= n + 1 ? load_slice(in, y0 - 1 + i, e0, border) : Slice<T>{};
  // Unrolled by the window's length, the shifts below are register renames, not copies.
#pragma unroll kWindow
  for (int j = 0; j < n; ++j) {
    const int ahead = y0 + j + kWindow - 2;  // the row computed kRowsAhead iterations from now needs it
    rows[kWindow - 1] = ahead <= y0 + n ? load_slice(in, ahead, e0, border) : Slice<T>{};
    s.row(rows[0], rows[1], rows[2], y0 + j);
#pragma unroll
    for (int i = 0; i < kWindow - 1; ++i) rows[i] = rows[i + 1];
  }
}

}  // namespace

int rows_per_thread(const StencilJob& job) { return elem_size(job.type) == 1 ? 6 : 4; }

// Group width for a block width, 0 when the block does not suit this kernel (the shuffles need full warps and
// groups of a power-of-two width of at least 8 lanes).
int separable3_group(BlockShape b) { return shuffle_group(b); }

StencilLaunch make_separable3_launch(const StencilJob& job) {
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    return dispatch_finish(job.plan, [&]<int KIND>() {
      using A = Acc<T>;
      constexpr int V = kSliceElems<T>;
      StencilLaunch l;
      l.shape.func = reinterpret_cast<const void*>(&separable3_kernel<T, C, KIND>);
      l.shape.name = kernel_name<T, C>("separable3x3_rows", finish_name(KIND));
      l.shape.block = block_dim(job.block);
      validate_launch(job.device, l.shape);

      Taps3<A> w{};
      const auto fill = [](A (&dst)[3], const std::vector<A>& src) { std::copy(src.begin(), src.end(), dst); };
      fill(w.ax, axis_taps<A>(job.plan.a, true, 1));
      fill(w.ay, axis_taps<A>(job.plan.a, false, 1));
      if (KIND == kGradient) {
        fill(w.bx, axis_taps<A>(job.plan.b, true, 1));
        fill(w.by, axis_taps<A>(job.plan.b, false, 1));
      }
      const int group = separable3_group(job.block);
      const int row_elements = job.width * C;
      const unsigned groups = ceil_div(row_elements, (group - 2) * V);
      const unsigned groups_per_block = unsigned(job.block.x / group);
      const unsigned blocks_x = ceil_div(groups, groups_per_block);
      const int rows = rows_per_thread(job);
      const dim3 block = l.shape.block;
      const dim3 grid(blocks_x, ceil_div(job.height, (long long)block.y * rows));
      check_grid(grid);
      const BorderRead br = border_read(job.plan, job.type);
      const FinishParams fp = finish_params(job.plan);
      l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& d) {
        const ImageView<T, C> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
        separable3_kernel<T, C, KIND><<<grid, block, 0, s>>>(in, out, w, group, rows, br, fp);
      };
      return l;
    });
  });
}

}  // namespace ks::cuda
