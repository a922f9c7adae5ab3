// The "separable" variant for u8 3x3 filters with non-negative weights and small sums (the 3x3 box): a slice of
// W bytes per lane, rows walked down in registers, horizontal neighbours by lane shuffles, two pixels per 32-bit
// register (sums stay below 2^16, so two 16-bit lanes add and multiply in one integer instruction without carrying
// into each other); the rounded division is one multiply-high per pixel.
//
// Two kinds of blocks in one launch, so that the walk carries no border code:
//   - interior blocks walk the pixels whose 3x3 window lies inside the image (x in 1..w-2, y in 1..h-2). A warp
//     whose rows and slices are all inside runs the lean walk: one vector load per row, the row address stepped by
//     the pitch. The few warps at the image's right and bottom edges run the same walk with clamped rows and
//     byte-wise loads of the slice that crosses the row's end ("ragged");
//   - edge blocks compute the first and last row and column (the pixels whose window leaves the image), one pixel
//     per thread, through the border rule.
// Before, the walk applied the border rule itself and was a third slower than the same walk alone
// (docs/PERF.md).
//
// Exactness (bit-identical to round_div): the window sum s is the same integer as the 2-D sum (weights >= 0, no
// lane overflows: 255 * sum(ax) * sum(ay) + d/2 < 2^16); round_div(s, d) = floor((s + h) / d), h = floor(d/2)
// (see U8Divider), never above 255 since s <= 255 d; and floor(n / d) = umulhi(n, ceil(2^32 / d)) for n, d < 2^16
// and d >= 2 (the error n * (m d - 2^32) / 2^32 stays below 1/d of a unit since m d - 2^32 < d and n d < 2^32).
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/separable_kernels.cuh"
#include "stencil/tiled_design.hpp"

namespace ks::cuda {

namespace {

// What the walk computes, known when the kernel is compiled (a run-time test would leave the other paths'
// instructions in the loop, issued predicated off: they still take issue slots):
//   kWeighted  ax (x) ay, any non-negative weights;  kOnes  the box (every weight 1);
//   kLaplace4, kLaplace8  the laplacians (tiled variant, u8): 0 1 0 / 1 -4 1 / 0 1 0 (the 4 neighbours, then - 4 c)
//   and 1 1 1 / 1 -8 1 / 1 1 1 (the box, then - 9 c), computed as the non-negative sum plus 255 k - k c for the
//   centre c (k = 4 or 9): the 16-bit lanes never go negative and stay below 2^16 (at most 9 * 255 + 9 * 255),
//   and the result is that sum minus 255 k, saturated to 0..255 per lane: the divisor is 1 (round_div is the
//   identity), so it is bit-identical to saturate_u8 of the integer window sum.
enum PackedKind : int { kWeighted, kOnes, kLaplace4, kLaplace8 };

struct PackedTaps {
  std::uint32_t ax[3], ay[3];  // centred 3-tap weights
  std::uint32_t half;          // h = floor(d / 2)
  std::uint32_t half2;         // h in both 16-bit lanes
  std::uint32_t magic;         // ceil(2^32 / d)
  std::int32_t w9[9];          // the laplacians' window, for the edge pixels
};

template <int Kind>
constexpr std::uint32_t kLaplaceCentre = Kind == kLaplace4 ? 4u : 9u;
// 255 k in both 16-bit lanes.
template <int Kind>
constexpr std::uint32_t kLaplaceBias = 255u * kLaplaceCentre<Kind> * 0x10001u;

// Where the two kinds of blocks are: interior blocks have blockIdx.y < interior_rows_of_blocks.
struct PackedGrid {
  int group;                   // lanes per shuffle group: 32, 16 or 8 (the block's width up to 32)
  int rows_per_thread;         // R: output rows each interior thread walks
  int interior_rows_of_blocks;
  long long edge_pixels;       // pixels of the first and last row and column (all pixels without interior blocks)
};

// W bytes of a row per lane: 8 (uint2) or 16 (uint4).
template <int W>
using Bytes = std::conditional_t<W == 8, uint2, uint4>;

template <int W>
__device__ __forceinline__ std::uint32_t word(const Bytes<W>& q, int k) {
  if constexpr (W == 8) return k == 0 ? q.x : q.y;
  else return k == 0 ? q.x : k == 1 ? q.y : k == 2 ? q.z : q.w;
}

// Bytes 2k and 2k+1 of a slice as two 16-bit lanes of word k.
template <int W>
__device__ __forceinline__ void unpack(const Bytes<W>& q, std::uint32_t (&w)[W / 2]) {
#pragma unroll
  for (int k = 0; k < W / 4; ++k) {
    w[2 * k] = __byte_perm(word<W>(q, k), 0u, 0x4140);
    w[2 * k + 1] = __byte_perm(word<W>(q, k), 0u, 0x4342);
  }
}

template <int Kind>
__device__ __forceinline__ std::uint32_t weigh3(const std::uint32_t (&a)[3], std::uint32_t p, std::uint32_t c,
                                                std::uint32_t n) {
  if constexpr (Kind == kWeighted) return a[0] * p + a[1] * c + a[2] * n;
  else return p + c + n;
}

// The slice [e0, e0 + W) of a row whose end `row_bytes` cuts it: the bytes inside, zeros after (their sums are
// never written: those bytes are past the row, or its last pixel, which the edge blocks compute).
template <int W>
__device__ __noinline__ Bytes<W> load_cut_slice(const std::uint8_t* row, int e0, int row_bytes) {
  std::uint32_t w[W / 4] = {};
  for (int i = 0; i < W && e0 + i < row_bytes; ++i) w[i / 4] |= std::uint32_t(row[e0 + i]) << (8 * (i % 4));
  if constexpr (W == 8) return make_uint2(w[0], w[1]);
  else return make_uint4(w[0], w[1], w[2], w[3]);
}

// One thread's slice and rows in an interior block.
template <int C, int W, int Kind>
struct PackedWalk {
  static constexpr int K = W / 2;  // words of two pixels
  ImageView<std::uint8_t, C> in, out;
  PackedTaps t;  // by value: a reference to a kernel parameter would force a copy to local memory
  int group;
  int e0;       // the slice's first byte in the row (negative for the first group's halo lane)
  int e_load;   // where the slice is read from: e0, or 0 for a slice left of the row (its bytes are never used)
  bool cut;     // the slice crosses the row's end: read byte by byte (ragged warps only)
  bool writes;  // a lane that owns output bytes (not a halo lane) inside x = 1 .. w-2
  bool whole;   // ... and all W of them are such bytes: one vector store

  // Lean: no lane of the warp is cut (the test is left out of the loop).
  template <bool Lean>
  __device__ __forceinline__ Bytes<W> load(int y) const {
    const std::uint8_t* row = in.row(y);
    if (!Lean && cut) return load_cut_slice<W>(row, e0, in.row_elements());
    return __ldg(reinterpret_cast<const Bytes<W>*>(row + e_load));
  }

  // Output row y from the unpacked input rows y-1 (p), y (c), y+1 (n).
  __device__ __forceinline__ void row(const std::uint32_t (&p)[K], const std::uint32_t (&c)[K],
                                      const std::uint32_t (&n)[K], int y, bool store) const {
    // v: the column sums; h: what the horizontal pass weighs (the centre row for the 4-neighbour laplacian,
    // whose corners are 0, else the column sums).
    std::uint32_t v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = Kind == kLaplace4 ? p[k] + n[k] : weigh3<Kind>(t.ay, p[k], c[k], n[k]);
    std::uint32_t h[K];  // (register renames once unrolled)
#pragma unroll
    for (int k = 0; k < K; ++k) h[k] = Kind == kLaplace4 ? c[k] : v[k];
    // The words holding elements i - C and i + C for the elements i of word k.
    std::uint32_t left[K], right[K];
    if constexpr (C == 1) {
      const std::uint32_t l = __shfl_up_sync(0xffffffffu, h[K - 1], 1, group);
      const std::uint32_t r = __shfl_down_sync(0xffffffffu, h[0], 1, group);
      // (x_{2k-1}, x_{2k}) from the high lane of word k-1 and the low lane of word k.
      left[0] = __byte_perm(l, h[0], 0x5432);
#pragma unroll
      for (int k = 1; k < K; ++k) left[k] = __byte_perm(h[k - 1], h[k], 0x5432);
#pragma unroll
      for (int k = 0; k < K - 1; ++k) right[k] = left[k + 1];
      right[K - 1] = __byte_perm(h[K - 1], r, 0x5432);
    } else {
      // Four channels: the neighbouring pixel's element is two words away.
      const std::uint32_t l0 = __shfl_up_sync(0xffffffffu, h[K - 2], 1, group);
      const std::uint32_t l1 = __shfl_up_sync(0xffffffffu, h[K - 1], 1, group);
      const std::uint32_t r0 = __shfl_down_sync(0xffffffffu, h[0], 1, group);
      const std::uint32_t r1 = __shfl_down_sync(0xffffffffu, h[1], 1, group);
#pragma unroll
      for (int k = 0; k < K; ++k) {
        left[k] = k >= 2 ? h[k - 2] : k == 0 ? l0 : l1;
        right[k] = k + 2 < K ? h[k + 2] : k + 2 == K ? r0 : r1;
      }
    }
    if (!store) return;
    std::uint32_t w[W / 4];
    if constexpr (Kind == kLaplace4 || Kind == kLaplace8) {
      constexpr std::uint32_t k = kLaplaceCentre<Kind>, bias = kLaplaceBias<Kind>;
      std::uint32_t q[K];  // two results per word, in the low bytes of its 16-bit lanes
#pragma unroll
      for (int i = 0; i < K; ++i) {
        // bias - k c: no lane borrows (k c <= 255 k in each lane), so one 32-bit multiply-add does both lanes.
        const std::uint32_t s = left[i] + right[i] + v[i] + (bias - k * c[i]);
        // max(s, 255 k) - 255 k: the saturating subtraction per lane, from sm_90's native 16x2 max (no lane
        // borrows after the max); then the minimum with 255.
        q[i] = __vminu2(__vmaxu2(s, bias) - bias, 0x00ff00ffu);
      }
#pragma unroll
      for (int i = 0; i < W / 4; ++i) w[i] = __byte_perm(q[2 * i], q[2 * i + 1], 0x6420);
    } else {
      std::uint32_t q[2 * K];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const std::uint32_t s = weigh3<Kind>(t.ax, left[k], v[k], right[k]) + t.half2;
        q[2 * k] = __umulhi(s & 0xffffu, t.magic);
        q[2 * k + 1] = __umulhi(s >> 16, t.magic);
      }
#pragma unroll
      for (int k = 0; k < W / 4; ++k)
        w[k] = __byte_perm(__byte_perm(q[4 * k], q[4 * k + 1], 0x0040),
                           __byte_perm(q[4 * k + 2], q[4 * k + 3], 0x0040), 0x5410);
    }
    std::uint8_t* orow = out.row(y) + e0;
    if (whole) {
      if constexpr (W == 8) *reinterpret_cast<uint2*>(orow) = make_uint2(w[0], w[1]);
      else *reinterpret_cast<uint4*>(orow) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
      // The slice holding the first or the last pixel, or crossing the row's end: the interior bytes only.
      const int first = C, last = out.row_elements() - C;  // [first, last): x = 1 .. w-2
      for (int i = 0; i < W; ++i)
        if (e0 + i >= first && e0 + i < last) orow[i] = std::uint8_t(w[i / 4] >> (8 * (i % 4)));
    }
  }
};

constexpr int kRowsAhead = 2;  // loads in flight ahead of the row being computed
// 16 bytes per lane and 2 rows ahead: the fastest of tests/perf/box_u8_designs.cu (docs/PERF.md).
constexpr int kLaneBytes = 16;

// Output rows y0 .. y0+n-1 (inside 1..h-2), reading rows y0-1 .. y0+n. The trip count n is the warp's (shuffles
// need every lane). Ragged: some lanes of the warp have fewer rows (n_own < n, down to none for a thread row past
// the image): they read their last row (at most h-1) again instead of rows past it and store nothing there; and a
// lane's slice may cross the row's end (read byte by byte).
template <int C, int W, int Kind, bool Ragged>
__device__ __forceinline__ void packed_walk(const PackedWalk<C, W, Kind>& s, int y0, int n, int n_own) {
  constexpr int K = W / 2;
  const int y_last = min(y0 + n_own, s.in.height - 1);  // the last row this lane may read
  auto row_at = [&](int y) { return Ragged ? min(y, y_last) : y; };
  auto load = [&](int y) { return s.template load<!Ragged>(row_at(y)); };
  std::uint32_t p[K], c[K], nx[K];
  Bytes<W> ahead[kRowsAhead];
  unpack<W>(load(y0 - 1), p);
  unpack<W>(load(y0), c);
#pragma unroll
  for (int i = 0; i < kRowsAhead; ++i) ahead[i] = i < n ? load(y0 + 1 + i) : Bytes<W>{};
#pragma unroll kRowsAhead
  for (int j = 0; j < n; ++j) {
    unpack<W>(ahead[0], nx);
#pragma unroll
    for (int i = 0; i < kRowsAhead - 1; ++i) ahead[i] = ahead[i + 1];
    // Row y0 + j + 1 + kRowsAhead, needed kRowsAhead iterations from now.
    ahead[kRowsAhead - 1] = j + kRowsAhead < n ? load(y0 + j + 1 + kRowsAhead) : Bytes<W>{};
    s.row(p, c, nx, y0 + j, s.writes && (!Ragged || j < n_own));
#pragma unroll
    for (int k = 0; k < K; ++k) p[k] = c[k], c[k] = nx[k];
  }
}

// Edge pixel i (0 .. edge_pixels-1): the first row, the last row, then the first and the last column between them;
// or, for an image without interior blocks, pixel i of the whole image.
__device__ __forceinline__ void edge_pixel_xy(long long i, int w, int h, bool all, int& x, int& y) {
  if (all) {
    x = int(i % w), y = int(i / w);
    return;
  }
  if (i < w) {
    x = int(i), y = 0;
    return;
  }
  i -= w;
  if (h > 1) {
    if (i < w) {
      x = int(i), y = h - 1;
      return;
    }
    i -= w;
  }
  const int inner = h - 2;  // rows 1 .. h-2 of the first column, then of the last
  x = i < inner ? 0 : w - 1;
  y = 1 + int(i < inner ? i : i - inner);
}

// The window of an edge pixel through the border rule, each channel with the interior's arithmetic.
template <int C, int Kind>
__device__ void edge_pixel(const ImageView<std::uint8_t, C>& in, const ImageView<std::uint8_t, C>& out,
                           const PackedTaps& t, const BorderRead& border, int x, int y) {
  if constexpr (Kind == kLaplace4 || Kind == kLaplace8) {
    for (int ch = 0; ch < C; ++ch) {
      std::int32_t s = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          s += t.w9[(dy + 1) * 3 + dx + 1] * std::int32_t(border.read(in, x + dx, y + dy, ch));
      out.row(y)[x * C + ch] = saturate_u8(std::int64_t(s));
    }
  } else {
    for (int ch = 0; ch < C; ++ch) {
      std::uint32_t s = t.half;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          s += t.ay[dy + 1] * t.ax[dx + 1] * std::uint32_t(border.read(in, x + dx, y + dy, ch));
      out.row(y)[x * C + ch] = std::uint8_t(__umulhi(s, t.magic));
    }
  }
}

template <int C, int W, int Kind>
__global__ void __launch_bounds__(1024)
    separable3_packed_kernel(ImageView<std::uint8_t, C> in, ImageView<std::uint8_t, C> out, PackedTaps t,
                             PackedGrid g, BorderRead border) {
  if (int(blockIdx.y) >= g.interior_rows_of_blocks) {
    const long long block = (long long)(blockIdx.y - g.interior_rows_of_blocks) * gridDim.x + blockIdx.x;
    const long long i = block * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x;
    if (i >= g.edge_pixels) return;
    int x = 0, y = 0;
    edge_pixel_xy(i, in.width, in.height, g.interior_rows_of_blocks == 0, x, y);
    edge_pixel<C, Kind>(in, out, t, border, x, y);
    return;
  }
  const int group = g.group, R = g.rows_per_thread;
  const int row_bytes = in.row_elements();
  const int lane = threadIdx.x & (group - 1);
  const int gi = blockIdx.x * (blockDim.x / group) + threadIdx.x / group;
  const int e0 = (gi * (group - 2) + lane - 1) * W;
  const int y0 = 1 + (blockIdx.y * blockDim.y + threadIdx.y) * R;
  const int n_own = max(0, min(R, in.height - 1 - y0));  // rows y0 .. y0+n_own-1 lie in 1 .. h-2
  const bool owner = lane >= 1 && lane <= group - 2;
  const bool cut = e0 < row_bytes && e0 + W > row_bytes;
  PackedWalk<C, W, Kind> s{in, out, t, group, e0, max(e0, 0), cut, false, false};
  s.writes = owner && e0 + W > C && e0 < row_bytes - C && n_own > 0;
  s.whole = e0 >= C && e0 + W <= row_bytes - C;
  // Past the row: any aligned bytes will do (never used); the row's start is aligned for every width.
  if (e0 >= row_bytes) s.e_load = 0;
  // Lanes left or right of the row read a slice inside it (never used); only a cut slice or short rows make
  // the warp ragged: on an 8192-byte row every warp of a full row band is lean.
  const bool lean = n_own == R && !cut;
  // The whole warp takes one path: the walk shuffles.
  const int n = __reduce_max_sync(0xffffffffu, unsigned(n_own));
  if (n == 0) return;
  if (__all_sync(0xffffffffu, lean)) packed_walk<C, W, Kind, false>(s, y0, R, R);
  else packed_walk<C, W, Kind, true>(s, y0, n, n_own);
}

}  // namespace

bool separable3_packed_applies(const StencilJob& job) {
  const StencilPlan& plan = job.plan;
  if (job.type != ElemType::U8 || plan.kind != StencilPlan::Kind::Linear || !plan.separable()) return false;
  if (plan.radius_x() > 1 || plan.radius_y() > 1 || separable3_group(job.block) == 0) return false;
  const auto ax = axis_taps<std::int32_t>(plan.a, true, 1), ay = axis_taps<std::int32_t>(plan.a, false, 1);
  std::int64_t sx = 0, sy = 0;
  for (int i = 0; i < 3; ++i) {
    if (ax[i] < 0 || ay[i] < 0) return false;
    sx += ax[i];
    sy += ay[i];
  }
  const std::int64_t d = plan.a.divisor;
  return d >= 2 && d < 65536 && 255 * sx * sy + d / 2 < 65536;
}

namespace {

// The launch for a kind (kLaplace*: the caller filled t.w9).
template <int C, int Kind>
StencilLaunch packed_launch(const StencilJob& job, const PackedTaps& t, const char* name) {
  constexpr int W = kLaneBytes;
  StencilLaunch l;
  l.shape.func = reinterpret_cast<const void*>(&separable3_packed_kernel<C, W, Kind>);
  l.shape.name = name;
  l.shape.block = block_dim(job.block);
  validate_launch(job.device, l.shape);

  PackedGrid g{};
  g.group = separable3_group(job.block);
  g.rows_per_thread = rows_per_thread(job);
  const long long w = job.width, h = job.height, row_bytes = w * C;
  // Interior pixels exist when the image is at least 3x3; a row narrower than one slice is left to the edge
  // blocks too (its few pixels are not worth a walk).
  const bool interior = w >= 3 && h >= 3 && row_bytes >= W;
  const unsigned groups = interior ? ceil_div(row_bytes, (g.group - 2) * W) : 0;
  const unsigned blocks_x = std::max(1u, ceil_div(groups, job.block.x / g.group));
  g.interior_rows_of_blocks = interior ? int(ceil_div(ceil_div(h - 2, g.rows_per_thread), job.block.y)) : 0;
  g.edge_pixels = !interior ? w * h : 2 * w + 2 * (h - 2);
  const long long edge_blocks = (g.edge_pixels + job.block.threads() - 1) / job.block.threads();
  const dim3 block = l.shape.block;
  const dim3 grid(blocks_x, unsigned(g.interior_rows_of_blocks + (edge_blocks + blocks_x - 1) / blocks_x));
  check_grid(grid);
  const BorderRead br = border_read(job.plan, job.type);
  l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& dev) {
    const ImageView<std::uint8_t, C> in{dev.in, dev.in_pitch, job_w, job_h}, out{dev.out, dev.out_pitch, job_w, job_h};
    separable3_packed_kernel<C, W, Kind><<<grid, block, 0, s>>>(in, out, t, g, br);
  };
  return l;
}

}  // namespace

StencilLaunch make_separable3_packed_launch(const StencilJob& job) {
  const auto ax = axis_taps<std::int32_t>(job.plan.a, true, 1), ay = axis_taps<std::int32_t>(job.plan.a, false, 1);
  PackedTaps t{};
  bool ones = true;
  for (int i = 0; i < 3; ++i) {
    t.ax[i] = std::uint32_t(ax[i]);
    t.ay[i] = std::uint32_t(ay[i]);
    ones = ones && ax[i] == 1 && ay[i] == 1;
  }
  const std::uint32_t d = std::uint32_t(job.plan.a.divisor);
  t.half = d / 2;
  t.half2 = t.half | (t.half << 16);
  t.magic = std::uint32_t(((std::uint64_t(1) << 32) + d - 1) / d);
  const std::string box = kernel_name<std::uint8_t, 1>("separable3x3_packed", "box"),
                    linear = kernel_name<std::uint8_t, 1>("separable3x3_packed", "linear"),
                    box4 = kernel_name<std::uint8_t, 4>("separable3x3_packed", "box"),
                    linear4 = kernel_name<std::uint8_t, 4>("separable3x3_packed", "linear");
  if (job.channels == 1)
    return ones ? packed_launch<1, kOnes>(job, t, box.c_str()) : packed_launch<1, kWeighted>(job, t, linear.c_str());
  return ones ? packed_launch<4, kOnes>(job, t, box4.c_str()) : packed_launch<4, kWeighted>(job, t, linear4.c_str());
}

StencilLaunch make_laplacian3_packed_launch(const StencilJob& job) {
  const int neighbours = job.type == ElemType::U8 && job.channels == 1 && separable3_group(job.block) != 0
                             ? laplacian3x3_neighbours(job.plan)
                             : 0;
  if (neighbours == 0) throw Error(ErrorKind::Internal, "laplacian3_packed: not a 3x3 u8 laplacian on this block");
  PackedTaps t{};
  const std::vector<std::int32_t> w = plan_window_weights<std::int32_t>(job.plan);
  for (int i = 0; i < 9; ++i) t.w9[i] = w[std::size_t(i)];
  const std::string name = laplacian3x3_kernel_name(neighbours);
  return neighbours == 4 ? packed_launch<1, kLaplace4>(job, t, name.c_str())
                         : packed_launch<1, kLaplace8>(job, t, name.c_str());
}

}  // namespace ks::cuda
