// The "separable" variant for any radius: one fused kernel, a row pass then a column pass, with the intermediate
// rows kept in shared memory (exact int32 for u8, float for f32).
//
// A block of bx x by threads owns a strip 4*bx elements wide and walks down it, TH = NR*by output rows per step
// (NR = 4 rows per thread):
//   1. input rows (border remapped, vector loads where the strip is inside the image) go into a shared buffer;
//   2. the row pass turns them into row sums, written into a ring of TH + 2*ry rows, so each row's sums are
//      computed once per strip, however many output rows read them;
//   3. the column pass computes NR rows x 4 elements per thread from the ring and writes them with one vector
//      store per row.
// Both passes are register-blocked: each value loaded from shared memory feeds 4 (row pass) or NR (column pass)
// outputs, and the weights come through a sliding window of registers (4 new per 4 taps, one vector load), so the
// inner loops are almost only FMAs. Weights are zero-padded so that the blocks of 4 taps need no bounds checks.
#include <cuda_pipeline.h>

#include <algorithm>

#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/separable_kernels.cuh"
#include "stencil/cuda/vector_access.cuh"

namespace ks::cuda {

namespace {

constexpr int kMaxThreads = 1024;

// Output rows per thread in the column pass. 8 halves the ring reads per FMA, but was slower (docs/PERF.md):
// twice the ring per block, fewer blocks per SM.
template <class T, int KIND>
constexpr int kRowsPerThread = 4;

// Where everything lives in the block's shared memory, and the sizes the kernel loops over. Built on the host.
struct StripLayout {
  int rx, ry;        // common radii of the filters
  int rx_aligned;    // round_up(rx, 4): where a C = 1 row-pass item's values start, before its first output
  int taps_y;        // 2*ry + 1
  int halo;          // elements of input kept left and right of the strip (>= rx*C, 16-byte multiple)
  int row_item;      // outputs per row-pass item: 8 (C = 1, even block width) or 4
  int row_pass_end;  // values a row-pass item walks over, a multiple of 4 (C = 1: row_item + 2*round_up(rx, 4))
  int col_pass_end;  // rows a column-pass item walks over, a multiple of 4: round_up(taps_y + NR - 1, 4)
  int in_stride;     // elements per row of the input buffer
  int row_round;     // input rows the row pass covers per round of the block's threads
  int batch;         // input rows per fill of the buffer: a multiple of row_round where one fits
  int ring_rows;     // round_up(TH + 2*ry, 4), TH = NR * by
  // The strips, top to bottom: long_strips of long_steps TH-row steps, then strips of short_steps.
  int long_steps, short_steps, long_strips;
  // Byte offsets in shared memory; 16-aligned.
  int off_hx_a, off_vy_a, off_hx_b, off_vy_b, off_in, off_ring_a, off_ring_b;
  int weights_count;  // Acc values at the start of shared memory, copied from the weights buffer
  int bytes;
};

int round_up(int v, int m) { return (v + m - 1) / m * m; }

// Row-pass weights. C = 1: an item computes NH (4 or 8) adjacent outputs from the values starting round_up(rx, 4)
// before them; the window W = P[kb .. kb+NH+4) gives output j's weight for value kb+u at W[u - j + NH - 1], so
// P[q] = w[q - (NH - 1) - (round_up(rx,4) - rx)]. C = 4: one pixel per item, P[t] = w[t] padded to a multiple of 4.
template <class A>
std::vector<A> row_pass_weights(const std::vector<A>& w, int rx, int channels, int row_item, int length) {
  std::vector<A> p(std::size_t(length), A(0));
  const int taps = 2 * rx + 1;
  const int shift = channels == 1 ? row_item - 1 + (round_up(rx, 4) - rx) : 0;
  for (int t = 0; t < taps; ++t) p[std::size_t(t + shift)] = w[std::size_t(t)];
  return p;
}

// Column-pass weights: output row j (of NR) takes ring row kb+u with weight W[u - j + NR - 1], where the window
// W = Q[kb .. kb+NR+4), so Q[q] = w[q - (NR - 1)].
template <class A>
std::vector<A> col_pass_weights(const std::vector<A>& w, int rows_per_thread, int length) {
  std::vector<A> q(std::size_t(length), A(0));
  for (std::size_t t = 0; t < w.size(); ++t) q[t + std::size_t(rows_per_thread - 1)] = w[t];
  return q;
}

template <class T, int C, int KIND>
StripLayout strip_layout(const StencilPlan& plan, BlockShape block) {
  using A = Acc<T>;
  StripLayout s{};
  s.rx = plan.radius_x();
  s.ry = plan.radius_y();
  s.rx_aligned = round_up(s.rx, 4);
  s.taps_y = 2 * s.ry + 1;
  const int tw = 4 * block.x, th = kRowsPerThread<T, KIND> * block.y;
  s.halo = round_up(s.rx * C, 16 / int(sizeof(T)));
  // Eight outputs per row-pass item halve its shared-memory reads per FMA; they need an even block width.
  s.row_item = C == 1 && block.x % 2 == 0 ? 8 : 4;
  s.row_pass_end = C == 1 ? s.row_item + 2 * round_up(s.rx, 4) : round_up(2 * s.rx + 1, 4);
  s.col_pass_end = round_up(s.taps_y + kRowsPerThread<T, KIND> - 1, 4);
  s.in_stride = round_up(tw + 2 * s.halo, 16 / int(sizeof(T)));
  // Fills of at most 16 KB: shared memory goes to the ring first, so that more blocks fit on an SM (a gaussian of
  // radius 24 in f32 fits three 32x8 blocks per SM this way, two with a buffer of a whole step's rows).
  // Whole rounds of the row pass: 36 rows at 16x16 took a second round in which one warp of eight worked and
  // the others waited at the barrier (docs/PERF.md).
  const int threads = block.x * block.y;
  s.row_round = std::max(1, threads / (tw / (C == 1 ? s.row_item : 4)));
  const int fits = std::clamp(int((16 * 1024) / (std::size_t(s.in_stride) * sizeof(T))), 1, th);
  s.batch = fits >= s.row_round ? fits / s.row_round * s.row_round : fits;
  // A multiple of 4 (as TH is), so that the column pass's blocks of 4 rows, which start at multiples of 4, never
  // straddle the ring's end: it tests for the wrap once per 4 rows instead of once per row.
  s.ring_rows = round_up(th + 2 * s.ry, 4);
  const int hx_len = C == 1 ? s.row_pass_end + s.row_item : s.row_pass_end;
  const int vy_len = s.col_pass_end + kRowsPerThread<T, KIND>;
  const bool two = KIND == kGradient;
  int off = 0;
  auto take = [&](std::size_t bytes) {
    const int at = off;
    off += round_up(int(bytes), 16);
    return at;
  };
  s.off_hx_a = take(hx_len * sizeof(A));
  s.off_vy_a = take(vy_len * sizeof(A));
  s.off_hx_b = two ? take(hx_len * sizeof(A)) : s.off_hx_a;
  s.off_vy_b = two ? take(vy_len * sizeof(A)) : s.off_vy_a;
  s.weights_count = off / int(sizeof(A));
  s.off_in = take(std::size_t(s.batch) * s.in_stride * sizeof(T));
  s.off_ring_a = take(std::size_t(s.ring_rows) * tw * sizeof(A));
  s.off_ring_b = two ? take(std::size_t(s.ring_rows) * tw * sizeof(A)) : s.off_ring_a;
  s.bytes = off;
  return s;
}

// The weights as they sit at the start of shared memory (gaps included), ready for one copy.
template <class T, int C, int KIND>
std::vector<Acc<T>> strip_weights(const StencilPlan& plan, const StripLayout& s) {
  using A = Acc<T>;
  std::vector<A> all(std::size_t(s.weights_count), A(0));
  const int hx_len = C == 1 ? s.row_pass_end + s.row_item : s.row_pass_end;
  auto put = [&](int byte_offset, const std::vector<A>& v) {
    std::copy(v.begin(), v.end(), all.begin() + byte_offset / int(sizeof(A)));
  };
  put(s.off_hx_a, row_pass_weights(axis_taps<A>(plan.a, true, s.rx), s.rx, C, s.row_item, hx_len));
  constexpr int nr = kRowsPerThread<T, KIND>;
  put(s.off_vy_a, col_pass_weights(axis_taps<A>(plan.a, false, s.ry), nr, s.col_pass_end + nr));
  if (KIND == kGradient) {
    put(s.off_hx_b, row_pass_weights(axis_taps<A>(plan.b, true, s.rx), s.rx, C, s.row_item, hx_len));
    put(s.off_vy_b, col_pass_weights(axis_taps<A>(plan.b, false, s.ry), nr, s.col_pass_end + nr));
  }
  return all;
}

// How a thread takes part in the fills of its block: fixed for the whole block (the strip's columns do not
// change), so worked out once, not per fill (divisions by runtime values cost about 20 instructions each;
// docs/PERF.md).
struct FillThread {
  int x_first;    // first element of the strip's rows to fill (halo included)
  bool inside;    // the strip's rows lie inside the image: vector copies, no column remap
  int vec_bytes;  // bytes per copy
  int per_row;    // copies per row
  int r0, v0;     // the thread's first (row, copy)
  int step_r, step_v;  // its stride: nthreads copies = step_r rows + step_v copies
};

template <class T, int C>
__device__ __forceinline__ FillThread fill_thread(const ImageView<T, C>& in, const StripLayout& s, int xs, int tw) {
  FillThread f;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x, nthreads = blockDim.x * blockDim.y;
  const int width = tw + 2 * s.halo;  // elements per row to fill
  f.x_first = xs - s.halo;
  f.inside = f.x_first >= 0 && f.x_first + width <= in.row_elements();
  // 16-byte vectors when the row slice is 16-byte aligned (always for f32; u8 needs a strip width of 16k).
  f.vec_bytes = !f.inside ? int(sizeof(T)) : (tw * int(sizeof(T))) % 16 == 0 ? 16 : 4;
  f.per_row = width * int(sizeof(T)) / f.vec_bytes;
  f.r0 = tid / f.per_row, f.v0 = tid - f.r0 * f.per_row;
  f.step_r = nthreads / f.per_row, f.step_v = nthreads - f.step_r * f.per_row;
  return f;
}

// Input rows [h0, h0+n) of the strip (elements xs - halo .. xs + tw + halo) into the buffer, border remapped.
// Work item i = r * per_row + v is walked incrementally. The caller syncs the block after.
template <class T, int C>
__device__ __forceinline__ void fill_input(const ImageView<T, C>& in, const StripLayout& s, const FillThread& f,
                                           T* buf, int h0, int n, const BorderRead& border) {
  const int vec_bytes = f.vec_bytes;
  if (f.inside && f.step_r > 0 && h0 >= 0 && h0 + n <= in.height) {
    // The whole batch lies inside the image (all blocks but those at its edges): each thread copies one column
    // of vectors down the rows, with pointers stepped rather than a row remap and a (row, vector) walk per copy.
    // That walk cost about 55 instructions per 16-byte copy (docs/PERF.md).
    if (f.r0 < f.step_r) {
      int r = f.r0;
      const unsigned char* src =
          reinterpret_cast<const unsigned char*>(in.row(h0 + r) + f.x_first) + f.v0 * vec_bytes;
      unsigned char* dst = reinterpret_cast<unsigned char*>(buf + r * s.in_stride) + f.v0 * vec_bytes;
      const std::size_t src_step = std::size_t(f.step_r) * in.pitch;
      const int dst_step = f.step_r * s.in_stride * int(sizeof(T));
      // The copy size is tested once, not per copy: inside the loop, both copies were issued (one predicated
      // off) with the no-op loads the compiler puts around them, 13 instructions per copy.
      auto copy_column = [&]<int Bytes>() {
        for (; r < n; r += f.step_r, src += src_step, dst += dst_step) __pipeline_memcpy_async(dst, src, Bytes);
      };
      if (vec_bytes == 16) copy_column.template operator()<16>();
      else copy_column.template operator()<4>();
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    return;
  }
  int r = f.r0, v = f.v0;
  for (; r < n; r += f.step_r, v += f.step_v) {
    if (v >= f.per_row) v -= f.per_row, ++r;
    if (r >= n) break;
    const int yy = remap(h0 + r, in.height, border.mode);
    unsigned char* dst = reinterpret_cast<unsigned char*>(buf + r * s.in_stride) + v * vec_bytes;
    if (yy < 0) {
      T* d = reinterpret_cast<T*>(dst);
      for (int k = 0; k < vec_bytes / int(sizeof(T)); ++k) d[k] = T(border.value);
    } else if (!f.inside) {
      *reinterpret_cast<T*>(dst) = border.read_element(in, in.row(yy), yy, f.x_first + v);
    } else {
      // Asynchronous copies (LDGSTS): the thread goes on issuing the next ones instead of waiting for each load
      // before its store. Loaded through registers, one load at a time per thread, the fill stalled the block
      // on DRAM latency once per vector. (Two buffers, the next batch filled during the row pass, were slower
      // still, as smaller batches meant more barriers; docs/PERF.md.)
      const unsigned char* src = reinterpret_cast<const unsigned char*>(in.row(yy) + f.x_first) + v * vec_bytes;
      if (vec_bytes == 16) __pipeline_memcpy_async(dst, src, 16);
      else __pipeline_memcpy_async(dst, src, 4);
    }
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);  // this thread's copies; the caller's barrier makes everyone's visible
}

// Which block of 4 taps a pass is at: the first and the last have corners of zero weights (left out); a pass of
// one block (radius 0 on that axis) has both.
enum class Part { First, Middle, Last, Only };

// A pass over `end` values (a multiple of 4) in blocks of 4, block(kb) called with its Part. Unroll: the weight
// window's length / 4, so that its shift by 4 becomes register renaming in the middle blocks.
template <int Unroll, class Block>
__device__ __forceinline__ void walk_blocks(int end, Block&& block) {
  if (end == 4) {
    block.template operator()<Part::Only>(0);
    return;
  }
  block.template operator()<Part::First>(0);
#pragma unroll Unroll
  for (int kb = 4; kb < end - 4; kb += 4) block.template operator()<Part::Middle>(kb);
  block.template operator()<Part::Last>(end - 4);
}

// Row pass of one item: NH adjacent elements (C = 1: NH pixels; C = 4, NH = 4: the 4 channels of one pixel) of
// input row r, starting at element NH * item of the strip.
template <class T, int C, int KIND, int NH>
__device__ __forceinline__ void row_pass_item(const StripLayout& s, const T* buf, const Acc<T>* hx_a,
                                              const Acc<T>* hx_b, int r, int item, Acc<T> (&acc_a)[NH],
                                              Acc<T> (&acc_b)[NH]) {
  using A = Acc<T>;
#pragma unroll
  for (int j = 0; j < NH; ++j) acc_a[j] = acc_b[j] = A(0);
  if constexpr (C == 1) {
    constexpr int NW = NH + 4;  // weight window
    const T* src = buf + r * s.in_stride + s.halo + NH * item - s.rx_aligned;
    A wa[NW], wb[NW];
#pragma unroll
    for (int i = 0; i < NH; i += 4) {
      A t[4];
      load4(hx_a + i, t);
      for (int k = 0; k < 4; ++k) wa[i + k] = t[k];
      if constexpr (KIND == kGradient) {
        load4(hx_b + i, t);
        for (int k = 0; k < 4; ++k) wb[i + k] = t[k];
      }
    }
    // Values kb .. kb+3 into the NH sums. In the first and the last block of values, the pairs (u, j) of the
    // corner triangles always have zero weight, whatever the radius: output j reads values j + off .. j + off +
    // 2*rx (off = round_up(rx, 4) - rx), so none before its own index j, none past row_pass_end - NH + j. Their
    // FMAs are left out at compile time (7 of the 56 per output for radius 24).
    auto block = [&]<Part P>(int kb) {
      {
        A t[4];
        load4(hx_a + kb + NH, t);
        for (int k = 0; k < 4; ++k) wa[NH + k] = t[k];
        if constexpr (KIND == kGradient) {
          load4(hx_b + kb + NH, t);
          for (int k = 0; k < 4; ++k) wb[NH + k] = t[k];
        }
      }
      A v[4];
      load4(src + kb, v);
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int j = 0; j < NH; ++j) {
          if ((P == Part::First || P == Part::Only) && j > u) continue;
          if ((P == Part::Last || P == Part::Only) && j < u + NH - 4) continue;
          acc_a[j] += wa[u - j + NH - 1] * v[u];
          if constexpr (KIND == kGradient) acc_b[j] += wb[u - j + NH - 1] * v[u];
        }
#pragma unroll
      for (int i = 0; i < NH; ++i) {
        wa[i] = wa[i + 4];
        if constexpr (KIND == kGradient) wb[i] = wb[i + 4];
      }
    };
    walk_blocks<NW / 4>(s.row_pass_end, block);
  } else {
    static_assert(NH == 4, "a 4-channel item is one pixel");
    // Pixel t of the window sits 4*(t - rx) elements from the item's own; taps past the end have zero weight
    // and read the last real tap's pixel (initialised memory).
    const T* src = buf + r * s.in_stride + s.halo + 4 * item - 4 * s.rx;
    const int last = 2 * s.rx;
    for (int tb = 0; tb < s.row_pass_end; tb += 4) {
      A wa[4], wb[4];
      load4(hx_a + tb, wa);
      if constexpr (KIND == kGradient) load4(hx_b + tb, wb);
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        A v[4];
        load4(src + 4 * min(tb + u, last), v);
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          acc_a[c] += wa[u] * v[c];
          if constexpr (KIND == kGradient) acc_b[c] += wb[u] * v[c];
        }
      }
    }
  }
}

// A thread's items in the row pass: (r0 + k * row_round, item) for k = 0, 1, ... Fixed for the block.
struct RowThread {
  int r0, item;
};

__device__ __forceinline__ RowThread row_thread(const StripLayout& s) {
  const int tid = threadIdx.y * blockDim.x + threadIdx.x, nthreads = blockDim.x * blockDim.y;
  const int per_row = nthreads / s.row_round;  // items per row; divides nthreads
  return {tid / per_row, tid % per_row};
}

// The row pass of input rows [0, n) of the buffer, into the ring from slot `slot0`.
template <class T, int C, int KIND, int NH>
__device__ __forceinline__ void row_pass(const StripLayout& s, const RowThread& rt, const T* buf,
                                         const Acc<T>* hx_a, const Acc<T>* hx_b, Acc<T>* ring_a, Acc<T>* ring_b,
                                         int tw, int n, int slot0) {
  using A = Acc<T>;
  const int item = rt.item;
  int r = rt.r0, slot = slot0 + r;
  for (; r < n; r += s.row_round, slot += s.row_round) {
    if (slot >= s.ring_rows) slot -= s.ring_rows;  // row_round < ring_rows: one wrap at most
    A sa[NH], sb[NH];
    row_pass_item<T, C, KIND, NH>(s, buf, hx_a, hx_b, r, item, sa, sb);
#pragma unroll
    for (int i = 0; i < NH; i += 4) {
      A qa[4] = {sa[i], sa[i + 1], sa[i + 2], sa[i + 3]};
      store4(ring_a + slot * tw + NH * item + i, qa);
      if constexpr (KIND == kGradient) {
        A qb[4] = {sb[i], sb[i + 1], sb[i + 2], sb[i + 3]};
        store4(ring_b + slot * tw + NH * item + i, qb);
      }
    }
  }
}

// Finishes and writes the column pass's NR x 4 outputs (rows y0.., elements e..e+3), one vector store per row.
template <class T, int C, int KIND, class F>
__device__ __forceinline__ void store_rows(const ImageView<T, C>& out, const ImageView<T, C>& in, int e, int y0,
                                           int y_end, const Acc<T> (&acc_a)[kRowsPerThread<T, KIND>][4],
                                           const Acc<T> (&acc_b)[kRowsPerThread<T, KIND>][4], F finish_one) {
  using A = Acc<T>;
  const int row_elements = out.row_elements();
#pragma unroll
  for (int j = 0; j < kRowsPerThread<T, KIND>; ++j) {
    const int y = y0 + j;
    if (y >= y_end) break;
    T src[4] = {};
    if constexpr (KIND == kUnsharp) {
      const T* srow = in.row(y);
      if (e + 4 <= row_elements) {
        A v[4];
        load4(srow + e, v);
        for (int m = 0; m < 4; ++m) src[m] = T(v[m]);
      } else {
        for (int m = 0; m < 4; ++m) src[m] = e + m < row_elements ? srow[e + m] : T(0);
      }
    }
    T res[4];
#pragma unroll
    for (int m = 0; m < 4; ++m) res[m] = finish_one(acc_a[j][m], acc_b[j][m], src[m]);
    T* orow = out.row(y);
    if (e + 4 <= row_elements) {
      store4(orow + e, res);
    } else {
      for (int m = 0; m < 4; ++m)
        if (e + m < row_elements) orow[e + m] = res[m];
    }
  }
}

template <class T, int C, int KIND>
__global__ void __launch_bounds__(1024) separable_strip_kernel(ImageView<T, C> in, ImageView<T, C> out, const Acc<T>* __restrict__ weights,
                                       StripLayout s, BorderRead border, FinishParams fp) {
  using A = Acc<T>;
  extern __shared__ __align__(16) unsigned char smem[];
  const int tw = 4 * blockDim.x, th = kRowsPerThread<T, KIND> * blockDim.y;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x, nthreads = blockDim.x * blockDim.y;
  const int xs = blockIdx.x * tw;
  const bool is_long = int(blockIdx.y) < s.long_strips;
  const int first_tile = is_long ? blockIdx.y * s.long_steps
                                 : s.long_strips * s.long_steps + (blockIdx.y - s.long_strips) * s.short_steps;
  const int y_begin = first_tile * th;
  if (y_begin >= in.height) return;  // the whole block: no barrier is left waiting
  const int y_end = min(in.height, y_begin + (is_long ? s.long_steps : s.short_steps) * th);

  A* wsh = reinterpret_cast<A*>(smem);
  for (int i = tid; i < s.weights_count; i += nthreads) wsh[i] = weights[i];
  const A* hx_a = reinterpret_cast<const A*>(smem + s.off_hx_a);
  const A* hx_b = reinterpret_cast<const A*>(smem + s.off_hx_b);
  const A* vy_a = reinterpret_cast<const A*>(smem + s.off_vy_a);
  const A* vy_b = reinterpret_cast<const A*>(smem + s.off_vy_b);
  T* buf = reinterpret_cast<T*>(smem + s.off_in);
  A* ring_a = reinterpret_cast<A*>(smem + s.off_ring_a);
  A* ring_b = reinterpret_cast<A*>(smem + s.off_ring_b);
  // The ring's padding rows (past TH + 2*ry) are first written in the second step, but the first step's column
  // pass may read them (times zero weights): they must hold finite values.
  for (int i = (th + 2 * s.ry) * tw + tid; i < s.ring_rows * tw; i += nthreads) ring_a[i] = ring_b[i] = A(0);
  __syncthreads();

  const FillThread ft = fill_thread(in, s, xs, tw);
  const RowThread rt = row_thread(s);
  // Row h sits in ring slot (h - (y_begin - ry)) mod ring_rows; the slots below are kept as running counters.
  int next_h = y_begin - s.ry;  // the next row whose row sums are due
  int next_slot = 0;            // its slot
  int step_slot = 0;            // the slot of row ys - ry, the first that the step's column pass reads
  for (int ys = y_begin; ys < y_end; ys += th) {
    // Row sums up to row ys + th + ry - 1: all the rows the column pass of this step reads.
    const int need = ys + th + s.ry;
    while (next_h < need) {
      const int n = min(s.batch, need - next_h);
      fill_input(in, s, ft, buf, next_h, n, border);
      __syncthreads();
      if constexpr (C == 1) {
        if (s.row_item == 8) row_pass<T, C, KIND, 8>(s, rt, buf, hx_a, hx_b, ring_a, ring_b, tw, n, next_slot);
        else row_pass<T, C, KIND, 4>(s, rt, buf, hx_a, hx_b, ring_a, ring_b, tw, n, next_slot);
      } else {
        row_pass<T, C, KIND, 4>(s, rt, buf, hx_a, hx_b, ring_a, ring_b, tw, n, next_slot);
      }
      __syncthreads();
      next_h += n;
      next_slot += n;  // n <= TH < ring_rows
      if (next_slot >= s.ring_rows) next_slot -= s.ring_rows;
    }

    // Column pass: rows ys + NR*ty + j (j < NR), elements xs + 4*tx + m (m < 4).
    constexpr int NR = kRowsPerThread<T, KIND>;
    constexpr int NW = NR + 4;  // weight window
    const int y0 = ys + NR * threadIdx.y;
    int first = step_slot + NR * int(threadIdx.y);  // ring slot of row y0 - ry, the first this thread reads
    if (first >= s.ring_rows) first -= s.ring_rows;     // NR * ty < TH < ring_rows
    step_slot += th;
    if (step_slot >= s.ring_rows) step_slot -= s.ring_rows;
    A acc_a[NR][4] = {}, acc_b[NR][4] = {};
    A wa[NW], wb[NW];
#pragma unroll
    for (int i = 0; i < NR; i += 4) {
      A t[4];
      load4(vy_a + i, t);
      for (int k = 0; k < 4; ++k) wa[i + k] = t[k];
      if constexpr (KIND == kGradient) {
        load4(vy_b + i, t);
        for (int k = 0; k < 4; ++k) wb[i + k] = t[k];
      }
    }
    // The window walks ring rows first, first+1, ... (wrapping). Past the last row with a non-zero weight it goes
    // on reading ring rows, all of them written by the first step (finite), times zero weights.
    const A* row_a = ring_a + first * tw + 4 * threadIdx.x;
    const A* row_b = ring_b + first * tw + 4 * threadIdx.x;
    const A* ring_end = ring_a + s.ring_rows * tw;
    const int ring_size = s.ring_rows * tw;
    // Ring rows kb .. kb+3 into the NR x 4 sums. As in the row pass, output row j reads ring rows j .. j + 2*ry,
    // and col_pass_end >= 2*ry + NR: the corners j > u of the first block and j < u + NR - 4 of the last have
    // zero weight and are left out at compile time.
    auto block = [&]<Part P>(int kb) {
      {
        A t[4];
        load4(vy_a + kb + NR, t);
        for (int k = 0; k < 4; ++k) wa[NR + k] = t[k];
        if constexpr (KIND == kGradient) {
          load4(vy_b + kb + NR, t);
          for (int k = 0; k < 4; ++k) wb[NR + k] = t[k];
        }
      }
      if (row_a >= ring_end) row_a -= ring_size, row_b -= ring_size;
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        A va[4];
        [[maybe_unused]] A vb[4];
        load4(row_a + u * tw, va);
        if constexpr (KIND == kGradient) load4(row_b + u * tw, vb);
#pragma unroll
        for (int j = 0; j < NR; ++j) {
          if ((P == Part::First || P == Part::Only) && j > u) continue;
          if ((P == Part::Last || P == Part::Only) && j < u + NR - 4) continue;
#pragma unroll
          for (int m = 0; m < 4; ++m) {
            acc_a[j][m] += wa[u - j + NR - 1] * va[m];
            if constexpr (KIND == kGradient) acc_b[j][m] += wb[u - j + NR - 1] * vb[m];
          }
        }
      }
      row_a += 4 * tw;
      row_b += 4 * tw;
#pragma unroll
      for (int i = 0; i < NR; ++i) {
        wa[i] = wa[i + 4];
        if constexpr (KIND == kGradient) wb[i] = wb[i + 4];
      }
    };
    walk_blocks<NW / 4>(s.col_pass_end, block);

    const int e = xs + 4 * threadIdx.x;
    if (e < in.row_elements()) {
      // The u8 box and its kin divide by a small divisor: test the divider's mode once, not per pixel.
      if constexpr (KIND == kLinear && sizeof(T) == 1) {
        if (fp.div.mode == U8Divider::Float) {
          store_rows<T, C, KIND>(out, in, e, y0, y_end, acc_a, acc_b, [&](A sa, A, T) { return fp.div.float_mode(sa); });
        } else {
          store_rows<T, C, KIND>(out, in, e, y0, y_end, acc_a, acc_b, [&](A sa, A sb, T src) { return finish<KIND>(sa, sb, src, fp); });
        }
      } else {
        store_rows<T, C, KIND>(out, in, e, y0, y_end, acc_a, acc_b, [&](A sa, A sb, T src) { return finish<KIND>(sa, sb, src, fp); });
      }
    }
    __syncthreads();  // the next step's row pass overwrites ring slots this one read
  }
}

}  // namespace

StencilLaunch make_separable_strip_launch(const StencilJob& job) {
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    return dispatch_finish(job.plan, [&]<int KIND>() {
      using A = Acc<T>;
      StencilLaunch l;
      l.shape.func = reinterpret_cast<const void*>(&separable_strip_kernel<T, C, KIND>);
      l.shape.name = kernel_name<T, C>("separable_strip", finish_name(KIND));
      l.shape.block = block_dim(job.block);
      if (job.block.threads() > 0 && job.block.threads() <= kMaxThreads) {
        StripLayout s = strip_layout<T, C, KIND>(job.plan, job.block);
        l.shape.dynamic_shared = std::size_t(s.bytes);
      }
      validate_launch(job.device, l.shape);
      StripLayout s = strip_layout<T, C, KIND>(job.plan, job.block);

      const std::vector<A> w = strip_weights<T, C, KIND>(job.plan, s);
      l.weights = std::make_shared<DeviceBuffer>(upload_array(w.data(), w.size(), "filter weights"));
      const int tw = 4 * job.block.x, th = kRowsPerThread<T, KIND> * job.block.y;
      const unsigned blocks_x = ceil_div(job.width * C, tw);
      // Steps per block: about twelve waves of resident blocks. One long wave left the SMs idle 40% of the time
      // (blocks progress at uneven speeds and nothing rebalances them); each strip recomputes 2*ry halo rows.
      // docs/PERF.md has the sweep of waves.
      int active = 0;
      check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, l.shape.func, job.block.threads(), s.bytes),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      const long long capacity = 1LL * std::max(1, active) * job.device.sm_count;
      const long long row_tiles = ceil_div(job.height, th);
      const long long blocks_y = std::max<long long>(1, 12 * capacity / blocks_x);
      const int steps = int(std::max<long long>(1, (row_tiles + blocks_y - 1) / blocks_y));
      // The upper half of the image in strips two steps longer: fewer halo rows there, while the blocks that
      // start last (the GPU starts blocks in order) are the short ones, which keeps the tail short (+2 and +0
      // were the best of the splits tried; docs/PERF.md).
      s.long_steps = steps + 2;
      s.short_steps = steps;
      s.long_strips = int(row_tiles / 2 / s.long_steps);
      const long long strips = s.long_strips + ceil_div(row_tiles - 1LL * s.long_strips * s.long_steps, s.short_steps);
      const dim3 block = l.shape.block;
      const dim3 grid(blocks_x, unsigned(strips));
      check_grid(grid);
      const std::size_t smem = std::size_t(s.bytes);
      const A* weights = l.weights->as<A>();
      const BorderRead br = border_read(job.plan, job.type);
      const FinishParams fp = finish_params(job.plan);
      l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t st, const DeviceImages& d) {
        const ImageView<T, C> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
        separable_strip_kernel<T, C, KIND><<<grid, block, smem, st>>>(in, out, weights, s, br, fp);
      };
      return l;
    });
  });
}

}  // namespace ks::cuda
