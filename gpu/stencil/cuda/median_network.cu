// The "tiled" variant of the median: selection networks on a shared tile, several outputs per thread.
// Each thread owns one quad of a row (4 u8 elements or 4 floats: 4 pixels of a gray image, 1 of an RGBA one) and
// walks a few rows down. The tile (quad_tile.cuh) holds the block's quads plus the halo in whole quads.
//   3x3: the window's columns are sorted once per thread and row and shared by the outputs that contain them
//        (median9_sorted_columns: the last 10 exchanges of the 19-exchange network); u8 takes two output rows
//        per step, the tile rows' words extracted once and walked down in registers, the two outputs of a
//        column sharing the order of their two common values (median3x3_two_rows);
//   5x5, 7x7: forgetful selection, the values read straight from the tile, two output rows per step whose 2R
//        shared window rows go through the selection once (forgetful_median_pair);
//   3x3 with one channel: the two outputs of adjacent windows share the order of their common columns
//        (median9_adjacent).
// u8 values go through the networks two at a time: elements (j, j + 2) of the quad in the 16-bit lanes of one
// word (median_select.cuh says why not four), so a thread runs two lanes-words for its 4 elements.
#include "stencil/cuda/median_network.cuh"
#include "stencil/cuda/median_select.cuh"
#include "stencil/cuda/quad_tile.cuh"
#include "stencil/tiled_design.hpp"

namespace ks::cuda {

namespace {

// The thread's view of the tile: the 2R+1 rows around one output row, elements relative to the thread's first.
template <class T>
struct TileWindow;

template <>
struct TileWindow<std::uint8_t> {
  const unsigned char* centre;  // the thread's quad in the window's first row
  int pitch;

  __device__ __forceinline__ std::uint32_t word(int dy, int k) const {
    return *reinterpret_cast<const std::uint32_t*>(centre + dy * pitch + 4 * k);
  }
  // Elements o and o + 2 of row dy, each doubled into a 16-bit lane (o is known at compile time).
  template <int O>
  __device__ __forceinline__ std::uint32_t pair(int dy) const {
    constexpr int k = (O >= 0 ? O : O - 3) / 4;  // floor(O / 4)
    constexpr unsigned s = unsigned(O - 4 * k);
    constexpr unsigned sel = s | s << 4 | (s + 2) << 8 | (s + 2) << 12;
    if constexpr (s + 2 < 4) return __byte_perm(word(dy, k), 0u, sel);
    else return __byte_perm(word(dy, k), word(dy, k + 1), sel);
  }
};

template <>
struct TileWindow<float> {
  const unsigned char* centre;
  int pitch;

  template <int O>
  __device__ __forceinline__ float element(int dy) const {
    return reinterpret_cast<const float*>(centre + dy * pitch)[O];
  }
};

// The quad's outputs: u8 lanes-words w[j] hold elements j (low lane) and j + 2 (high lane).
__device__ __forceinline__ void unpack_pairs(const std::uint32_t (&w)[2], std::uint8_t (&v)[4]) {
  v[0] = std::uint8_t(w[0]);
  v[1] = std::uint8_t(w[1]);
  v[2] = std::uint8_t(w[0] >> 16);
  v[3] = std::uint8_t(w[1] >> 16);
}

// 3x3, u8, two output rows at once (the thread's rows k and k + 1, tile rows k .. k + 3): the pair words of a
// tile row (element offsets -C .. 1 + C) are extracted once and serve the three output rows that hold the row;
// the two outputs of a column share its middle rows k + 1 and k + 2, ordered once (one exchange), and each takes
// its own top (row k) or bottom (row k + 3) into the order (4 min/max instead of sort3's 6).
template <int C>
struct PairRow {
  static constexpr int kCols = 2 + 2 * C;  // those no output uses are dropped by the compiler
  std::uint32_t v[kCols];
  __device__ __forceinline__ void load(const TileWindow<std::uint8_t>& t, int dy) {
    [&]<int... I>(std::integer_sequence<int, I...>) {
      ((v[I] = t.pair<I - C>(dy)), ...);
    }(std::make_integer_sequence<int, kCols>{});
  }
};

// Outputs of rows k (top, b, c) and k + 1 (b, c, bottom), as lanes-words w0, w1.
template <int C>
__device__ __forceinline__ void median3x3_two_rows(const PairRow<C>& top, const PairRow<C>& b, const PairRow<C>& c,
                                                   const PairRow<C>& bottom, std::uint32_t (&w0)[2],
                                                   std::uint32_t (&w1)[2]) {
  constexpr int kCols = PairRow<C>::kCols;
  std::uint32_t lo0[kCols], mid0[kCols], hi0[kCols], lo1[kCols], mid1[kCols], hi1[kCols];
#pragma unroll
  for (int i = 0; i < kCols; ++i) {
    const std::uint32_t s = PairLanes::lo(b.v[i], c.v[i]), l = PairLanes::hi(b.v[i], c.v[i]);  // s <= l
    // {t, s, l} in order: min(t, s), the median max(s, min(t, l)), max(t, l).
    lo0[i] = PairLanes::lo(top.v[i], s);
    mid0[i] = PairLanes::hi(s, PairLanes::lo(top.v[i], l));
    hi0[i] = PairLanes::hi(top.v[i], l);
    lo1[i] = PairLanes::lo(bottom.v[i], s);
    mid1[i] = PairLanes::hi(s, PairLanes::lo(bottom.v[i], l));
    hi1[i] = PairLanes::hi(bottom.v[i], l);
  }
  if constexpr (C == 1) {  // the two lanes-words' windows are adjacent: columns 0..2 and 1..3
    median9_adjacent<PairLanes, 0>(lo0, mid0, hi0, w0[0], w0[1]);
    median9_adjacent<PairLanes, 0>(lo1, mid1, hi1, w1[0], w1[1]);
  } else {
#pragma unroll
    for (int j = 0; j < 2; ++j) {  // the output at offset j: columns j - C, j, j + C (indices j, j + C, j + 2C)
      w0[j] = median9_sorted_columns<PairLanes>(lo0[j], mid0[j], hi0[j], lo0[j + C], mid0[j + C], hi0[j + C],
                                                lo0[j + 2 * C], mid0[j + 2 * C], hi0[j + 2 * C]);
      w1[j] = median9_sorted_columns<PairLanes>(lo1[j], mid1[j], hi1[j], lo1[j + C], mid1[j + C], hi1[j + C],
                                                lo1[j + 2 * C], mid1[j + 2 * C], hi1[j + 2 * C]);
    }
  }
}

template <int C>
__device__ __forceinline__ void median3x3(const TileWindow<float>& t, float (&out)[4]) {
  constexpr int kCols = 4 + 2 * C;  // offsets -C .. 3 + C
  float lo[kCols], mid[kCols], hi[kCols];
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((lo[I] = t.element<I - C>(0), mid[I] = t.element<I - C>(1), hi[I] = t.element<I - C>(2)), ...);
  }(std::make_integer_sequence<int, kCols>{});
#pragma unroll
  for (int i = 0; i < kCols; ++i) sort3<FloatLanes>(lo[i], mid[i], hi[i]);
  if constexpr (C == 1) {  // outputs 0 and 1 share columns 1 and 2, outputs 2 and 3 columns 3 and 4
    median9_adjacent<FloatLanes, 0>(lo, mid, hi, out[0], out[1]);
    median9_adjacent<FloatLanes, 2>(lo, mid, hi, out[2], out[3]);
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j)
      out[j] = median9_sorted_columns<FloatLanes>(lo[j], mid[j], hi[j], lo[j + C], mid[j + C], hi[j + C],
                                                  lo[j + 2 * C], mid[j + 2 * C], hi[j + 2 * C]);
  }
}

// Value k (row-major) of window rows dy0, dy0 + 1, ... around the output at element offset J.
template <class T, int C, int R, int J>
struct WindowValue {
  const TileWindow<T>& t;
  int dy0;
  template <int K>
  __device__ __forceinline__ auto operator()() const {
    constexpr int dy = K / (2 * R + 1), dx = K % (2 * R + 1) - R;
    if constexpr (sizeof(T) == 1) return t.template pair<J + dx * C>(dy0 + dy);
    else return t.template element<J + dx * C>(dy0 + dy);
  }
};

// Outputs of the window rows 0 .. 2R (top) and 1 .. 2R + 1 (bottom; `last` = 2R when there is no second output
// and the row below is not in the tile): the 2R rows the two share go through the selection once
// (forgetful_median_pair).
template <class L, int C, int R, int J, class T, class W>
__device__ __forceinline__ void median_two_rows_at(const TileWindow<T>& t, int last, W& top, W& bottom) {
  constexpr int N = (2 * R + 1) * (2 * R + 1);
  forgetful_median_pair<L, N, N - (2 * R + 1)>(WindowValue<T, C, R, J>{t, 1}, WindowValue<T, C, R, J>{t, 0},
                                               WindowValue<T, C, R, J>{t, last}, top, bottom);
}

template <int C, int R>
__device__ __forceinline__ void median_forgetful_two_rows(const TileWindow<std::uint8_t>& t, int last,
                                                          std::uint8_t (&top)[4], std::uint8_t (&bottom)[4]) {
  std::uint32_t w0[2], w1[2];
  median_two_rows_at<PairLanes, C, R, 0>(t, last, w0[0], w1[0]);
  median_two_rows_at<PairLanes, C, R, 1>(t, last, w0[1], w1[1]);
  unpack_pairs(w0, top);
  unpack_pairs(w1, bottom);
}

template <int C, int R>
__device__ __forceinline__ void median_forgetful_two_rows(const TileWindow<float>& t, int last, float (&top)[4],
                                                          float (&bottom)[4]) {
  [&]<int... J>(std::integer_sequence<int, J...>) {
    (median_two_rows_at<FloatLanes, C, R, J>(t, last, top[J], bottom[J]), ...);
  }(std::make_integer_sequence<int, 4>{});
}

template <class T, int C, int R>
__global__ void median_network_kernel(ImageView<T, C> in, ImageView<T, C> out, int pitch, int rows_per_thread,
                                      BorderRead border) {
  extern __shared__ __align__(16) unsigned char smem[];
  constexpr int kHalo = (R * C + kQuad - 1) / kQuad;  // quads of halo on each side
  const int bx = int(blockDim.x), by = int(blockDim.y);
  const int e_block = int(blockIdx.x) * bx * kQuad;  // the block's first output element and row
  const int y_block = int(blockIdx.y) * by * rows_per_thread;
  load_quad_tile(smem, pitch, in, e_block - kHalo * kQuad, y_block - R, bx + 2 * kHalo,
                 by * rows_per_thread + 2 * R, border);
  __syncthreads();

  const int x0 = e_block + int(threadIdx.x) * kQuad;
  if (x0 >= in.row_elements()) return;
  const int t0 = int(threadIdx.y) * rows_per_thread;  // the thread's first output row, in tile rows past the halo
  if constexpr (R == 1 && sizeof(T) == 1) {
    // Two output rows per step, the tile rows walked down in registers (median3x3_two_rows).
    const TileWindow<T> t{smem + t0 * pitch + (int(threadIdx.x) + kHalo) * int(sizeof(Quad<T>)), pitch};
    PairRow<C> a, b;
    a.load(t, 0);
    b.load(t, 1);
    for (int k = 0; k < rows_per_thread; k += 2) {
      const int y = y_block + t0 + k;
      if (y >= in.height) return;
      // An odd last row: the bottom row read twice, the second output not stored (the tile holds tile row
      // k + 2 = t0 + rows_per_thread + 1 at most, its last).
      const bool two = k + 1 < rows_per_thread;
      PairRow<C> c, d;
      c.load(t, k + 2);
      d.load(t, two ? k + 3 : k + 2);
      std::uint32_t w0[2], w1[2];
      median3x3_two_rows<C>(a, b, c, d, w0, w1);
      T v[4];
      unpack_pairs(w0, v);
      store_quad(out, x0, y, v);
      if (two && y + 1 < in.height) {
        unpack_pairs(w1, v);
        store_quad(out, x0, y + 1, v);
      }
      a = c;
      b = d;
    }
  } else if constexpr (R == 1) {
    for (int k = 0; k < rows_per_thread; ++k) {
      const int y = y_block + t0 + k;
      if (y >= in.height) return;
      const TileWindow<T> t{smem + (t0 + k) * pitch + (int(threadIdx.x) + kHalo) * int(sizeof(Quad<T>)), pitch};
      T v[4];
      median3x3<C>(t, v);
      store_quad(out, x0, y, v);
    }
  } else {
    // Two output rows per step, their shared window rows selected once (median_forgetful_two_rows).
    for (int k = 0; k < rows_per_thread; k += 2) {
      const int y = y_block + t0 + k;
      if (y >= in.height) return;
      const TileWindow<T> t{smem + (t0 + k) * pitch + (int(threadIdx.x) + kHalo) * int(sizeof(Quad<T>)), pitch};
      // An odd last row: its window's last row stands in for the missing one below (the tile ends there), and
      // the second output is not stored.
      const bool two = k + 1 < rows_per_thread;
      T top[4], bottom[4];
      median_forgetful_two_rows<C, R>(t, two ? 2 * R + 1 : 2 * R, top, bottom);
      store_quad(out, x0, y, top);
      if (two && y + 1 < in.height) store_quad(out, x0, y + 1, bottom);
    }
  }
}

template <class T, int C>
const void* median_network_func(int r) {
  switch (r) {
    case 1: return reinterpret_cast<const void*>(&median_network_kernel<T, C, 1>);
    case 2: return reinterpret_cast<const void*>(&median_network_kernel<T, C, 2>);
    default: return reinterpret_cast<const void*>(&median_network_kernel<T, C, 3>);
  }
}

}  // namespace

StencilLaunch make_median_network_launch(const StencilJob& job) {
  const int r = job.plan.median_radius;
  if (r < 1 || r > 3)
    throw_usage("the tiled median takes radius 1 to 3, not " + std::to_string(r), "use the naive variant");
  const TiledDesign design = tiled_design(job.plan, job.type, job.channels, job.block);
  return dispatch_pixel(job.type, job.channels, [&]<class T, int C>() {
    StencilLaunch l;
    l.shape.func = median_network_func<T, C>(r);
    l.shape.name = design.kernel_name;
    l.shape.block = block_dim(job.block);
    l.shape.dynamic_shared = design.shared_bytes;
    validate_launch(job.device, l.shape);
    const BorderRead br = border_read(job.plan, job.type);
    const dim3 block = l.shape.block;
    const int rows = design.cells_y, pitch = int(design.row_pitch);
    const dim3 grid(ceil_div(job.width, static_cast<long long>(job.block.x) * design.cells_x),
                    ceil_div(job.height, static_cast<long long>(job.block.y) * rows));
    check_grid(grid);
    const std::size_t smem = design.shared_bytes;
    l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& d) {
      const ImageView<T, C> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
      switch (r) {
        case 1: median_network_kernel<T, C, 1><<<grid, block, smem, s>>>(in, out, pitch, rows, br); break;
        case 2: median_network_kernel<T, C, 2><<<grid, block, smem, s>>>(in, out, pitch, rows, br); break;
        default: median_network_kernel<T, C, 3><<<grid, block, smem, s>>>(in, out, pitch, rows, br); break;
      }
    };
    return l;
  });
}

}  // namespace ks::cuda
