// The "separable" variant for u8 3x3 filters with non-negative weights and small sums (the 3x3 box): the same
// walk as separable_3x3.cu (a slice of 8 bytes per lane, rows in registers, neighbours by shuffle), but two pixels
// per 32-bit register. Sums stay below 2^16, so two 16-bit lanes add and multiply in one integer instruction
// without carrying into each other; the rounded division is one multiply-high per pixel. About a third of the
// instructions of the one-pixel-per-register kernel, which was compute-bound on u8.
//
// Exactness (bit-identical to round_div): the window sum s is the same integer as the 2-D sum (weights >= 0, no
// lane overflows: 255 * sum(ax) * sum(ay) + d/2 < 2^16); round_div(s, d) = floor((s + h) / d), h = floor(d/2)
// (see U8Divider), never above 255 since s <= 255 d; and floor(n / d) = umulhi(n, ceil(2^32 / d)) for n, d < 2^16
// and d >= 2 (the error n * (m d - 2^32) / 2^32 stays below 1/d of a unit since m d - 2^32 < d and n d < 2^32).
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/row_slices.cuh"
#include "stencil/cuda/separable_kernels.cuh"

namespace ks::cuda {

namespace {

struct PackedTaps {
  std::uint32_t ax[3], ay[3];  // centred 3-tap weights
  bool ones;                   // every weight is 1: additions instead of multiply-adds
  std::uint32_t half2;         // h in both 16-bit lanes
  std::uint32_t magic;         // ceil(2^32 / d)
};

// W bytes of a row per lane: 8 (uint2) or 16 (uint4).
template <int W>
using Bytes = std::conditional_t<W == 8, uint2, uint4>;

template <int W>
__device__ __forceinline__ std::uint32_t word(const Bytes<W>& q, int k) {
  if constexpr (W == 8) return k == 0 ? q.x : q.y;
  else return k == 0 ? q.x : k == 1 ? q.y : k == 2 ? q.z : q.w;
}

// The border rule element by element, where the slice leaves the image or the row is the constant border.
template <int C, int W>
__device__ __noinline__ Bytes<W> load_bytes_edge(const ImageView<std::uint8_t, C> in, int yy, int e0,
                                                const BorderRead border) {
  std::uint32_t w[W / 4] = {};
  const std::uint8_t* row = yy >= 0 ? in.row(yy) : nullptr;
  for (int i = 0; i < W; ++i) w[i / 4] |= std::uint32_t(border.read_element(in, row, yy, e0 + i)) << (8 * (i % 4));
  if constexpr (W == 8) return make_uint2(w[0], w[1]);
  else return make_uint4(w[0], w[1], w[2], w[3]);
}

// Interior: the caller knows that row y and the whole slice lie inside the image, so there is no border rule to
// apply and no bounds to test.
template <int C, int W, bool Interior>
__device__ __forceinline__ Bytes<W> load_bytes(const ImageView<std::uint8_t, C>& in, int y, int e0,
                                               const BorderRead& border) {
  if constexpr (Interior) return __ldg(reinterpret_cast<const Bytes<W>*>(in.row(y) + e0));
  const int yy = remap(y, in.height, border.mode);
  if (yy >= 0 && e0 >= 0 && e0 + W <= in.row_elements())
    return __ldg(reinterpret_cast<const Bytes<W>*>(in.row(yy) + e0));
  return load_bytes_edge<C, W>(in, yy, e0, border);
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

__device__ __forceinline__ std::uint32_t weigh3(const PackedTaps& t, const std::uint32_t (&a)[3], std::uint32_t p,
                                                std::uint32_t c, std::uint32_t n) {
  return t.ones ? p + c + n : a[0] * p + a[1] * c + a[2] * n;
}

template <int C, int W>
struct PackedStrip {
  static constexpr int K = W / 2;  // words of two pixels
  ImageView<std::uint8_t, C> in, out;
  PackedTaps t;  // by value: a reference to a kernel parameter would force a copy to local memory
  int group, e0;
  bool writes;

  // Output row y from the unpacked input rows y-1 (p), y (c), y+1 (n). Interior: row y and the slice are inside.
  template <bool Interior>
  __device__ __forceinline__ void row(const std::uint32_t (&p)[K], const std::uint32_t (&c)[K],
                                      const std::uint32_t (&n)[K], int y) const {
    std::uint32_t v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = weigh3(t, t.ay, p[k], c[k], n[k]);
    // The words holding elements i - C and i + C for the elements i of word k.
    std::uint32_t left[K], right[K];
    if constexpr (C == 1) {
      const std::uint32_t l = __shfl_up_sync(0xffffffffu, v[K - 1], 1, group);
      const std::uint32_t r = __shfl_down_sync(0xffffffffu, v[0], 1, group);
      // (x_{2k-1}, x_{2k}) from the high lane of word k-1 and the low lane of word k.
      left[0] = __byte_perm(l, v[0], 0x5432);
#pragma unroll
      for (int k = 1; k < K; ++k) left[k] = __byte_perm(v[k - 1], v[k], 0x5432);
#pragma unroll
      for (int k = 0; k < K - 1; ++k) right[k] = left[k + 1];
      right[K - 1] = __byte_perm(v[K - 1], r, 0x5432);
    } else {
      // Four channels: the neighbouring pixel's element is two words away.
      const std::uint32_t l0 = __shfl_up_sync(0xffffffffu, v[K - 2], 1, group);
      const std::uint32_t l1 = __shfl_up_sync(0xffffffffu, v[K - 1], 1, group);
      const std::uint32_t r0 = __shfl_down_sync(0xffffffffu, v[0], 1, group);
      const std::uint32_t r1 = __shfl_down_sync(0xffffffffu, v[1], 1, group);
#pragma unroll
      for (int k = 0; k < K; ++k) {
        left[k] = k >= 2 ? v[k - 2] : k == 0 ? l0 : l1;
        right[k] = k + 2 < K ? v[k + 2] : k + 2 == K ? r0 : r1;
      }
    }
    if (!writes || (!Interior && y >= in.height)) return;
    std::uint32_t q[2 * K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::uint32_t s = weigh3(t, t.ax, left[k], v[k], right[k]) + t.half2;
      q[2 * k] = __umulhi(s & 0xffffu, t.magic);
      q[2 * k + 1] = __umulhi(s >> 16, t.magic);
    }
    std::uint32_t w[W / 4];
#pragma unroll
    for (int k = 0; k < W / 4; ++k)
      w[k] = __byte_perm(__byte_perm(q[4 * k], q[4 * k + 1], 0x0040), __byte_perm(q[4 * k + 2], q[4 * k + 3], 0x0040),
                         0x5410);
    std::uint8_t* orow = out.row(y);
    if (Interior || e0 + W <= out.row_elements()) {
      if constexpr (W == 8) *reinterpret_cast<uint2*>(orow + e0) = make_uint2(w[0], w[1]);
      else *reinterpret_cast<uint4*>(orow + e0) = make_uint4(w[0], w[1], w[2], w[3]);
    } else {
      for (int i = 0; i < W; ++i)
        if (e0 + i < out.row_elements()) orow[e0 + i] = std::uint8_t(w[i / 4] >> (8 * (i % 4)));
    }
  }
};

constexpr int kRowsAhead = 3;  // loads in flight ahead of the row being computed (see separable_3x3.cu)

// Bytes per lane. 16 would halve the per-row overhead (address arithmetic, border tests, loop) per pixel, but it
// measured slower on an H100: box 8192^2 0.103-0.113 ms against 0.090 ms (80 registers against 52), and again with
// the interior path (64 registers) 0.085-0.098 ms against 0.079-0.083 ms. More loads in flight (5 rows ahead
// instead of 3) and register caps of 32-48 made no difference: the kernel is bound by latency, not by issue.
constexpr int kLaneBytes = 8;

// One thread's walk down its n rows. As in separable_3x3.cu: no early exit (shuffles), rows walked with
// kRowsAhead loads in flight; the three rows of the window are kept unpacked, the rows ahead packed.
template <int C, int W, bool Interior>
__device__ __forceinline__ void packed_walk(const PackedStrip<C, W>& s, int y0, int n, const BorderRead& border) {
  constexpr int K = W / 2;
  const ImageView<std::uint8_t, C>& in = s.in;
  std::uint32_t p[K], c[K], nx[K];
  Bytes<W> ahead[kRowsAhead];
  unpack<W>(load_bytes<C, W, Interior>(in, y0 - 1, s.e0, border), p);
  unpack<W>(load_bytes<C, W, Interior>(in, y0, s.e0, border), c);
#pragma unroll
  for (int i = 0; i < kRowsAhead; ++i)
    ahead[i] = i <= n - 1 ? load_bytes<C, W, Interior>(in, y0 + 1 + i, s.e0, border) : Bytes<W>{};
#pragma unroll 3
  for (int j = 0; j < n; ++j) {
    unpack<W>(ahead[0], nx);
#pragma unroll
    for (int i = 0; i < kRowsAhead - 1; ++i) ahead[i] = ahead[i + 1];
    const int next = y0 + j + 1 + kRowsAhead;  // needed kRowsAhead iterations from now
    ahead[kRowsAhead - 1] = next <= y0 + n ? load_bytes<C, W, Interior>(in, next, s.e0, border) : Bytes<W>{};
    s.template row<Interior>(p, c, nx, y0 + j);
#pragma unroll
    for (int k = 0; k < K; ++k) p[k] = c[k], c[k] = nx[k];
  }
}

template <int C, int W>
__global__ void __launch_bounds__(1024)
    separable3_packed_kernel(ImageView<std::uint8_t, C> in, ImageView<std::uint8_t, C> out, PackedTaps t, int group,
                             int rows_per_thread, BorderRead border) {
  const int lane = threadIdx.x & (group - 1);
  const int g = blockIdx.x * (blockDim.x / group) + threadIdx.x / group;
  const int e0 = (g * (group - 2) + lane - 1) * W;
  const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * rows_per_thread;
  const int n = rows_per_thread;
  const PackedStrip<C, W> s{in, out, t, group, e0, lane >= 1 && lane <= group - 2 && e0 < in.row_elements()};
  // Most warps read only inside the image (rows y0-1 .. y0+n, whole slices): they skip the border rule and the
  // bounds tests, about a third of the instructions per row. The choice must be the whole warp's (shuffles).
  const bool inside = y0 >= 1 && y0 + n <= in.height - 1 && e0 >= 0 && e0 + W <= in.row_elements();
  if (__all_sync(0xffffffffu, inside)) packed_walk<C, W, true>(s, y0, n, border);
  else packed_walk<C, W, false>(s, y0, n, border);
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

StencilLaunch make_separable3_packed_launch(const StencilJob& job) {
  auto make = [&]<int C, int W>() {
    StencilLaunch l;
    l.shape.func = reinterpret_cast<const void*>(&separable3_packed_kernel<C, W>);
    l.shape.name = kernel_name<std::uint8_t, C>("separable3x3_packed", "linear");
    l.shape.block = block_dim(job.block);
    validate_launch(job.device, l.shape);

    PackedTaps t{};
    const auto ax = axis_taps<std::int32_t>(job.plan.a, true, 1), ay = axis_taps<std::int32_t>(job.plan.a, false, 1);
    t.ones = true;
    for (int i = 0; i < 3; ++i) {
      t.ax[i] = std::uint32_t(ax[i]);
      t.ay[i] = std::uint32_t(ay[i]);
      t.ones = t.ones && ax[i] == 1 && ay[i] == 1;
    }
    const std::uint32_t d = std::uint32_t(job.plan.a.divisor), h = d / 2;
    t.half2 = h | (h << 16);
    t.magic = std::uint32_t(((std::uint64_t(1) << 32) + d - 1) / d);

    const int group = separable3_group(job.block);
    const unsigned groups = ceil_div(job.width * C, (group - 2) * W);
    const unsigned blocks_x = ceil_div(groups, job.block.x / group);
    const int rows = rows_per_thread(job);
    const dim3 block = l.shape.block;
    const dim3 grid(blocks_x, ceil_div(job.height, (long long)block.y * rows));
    check_grid(grid);
    const BorderRead br = border_read(job.plan, job.type);
    l.run = [=, job_w = job.width, job_h = job.height](cudaStream_t s, const DeviceImages& d) {
      const ImageView<std::uint8_t, C> in{d.in, d.in_pitch, job_w, job_h}, out{d.out, d.out_pitch, job_w, job_h};
      separable3_packed_kernel<C, W><<<grid, block, 0, s>>>(in, out, t, group, rows, br);
    };
    return l;
  };
  if (job.channels == 1) return make.template operator()<1, kLaneBytes>();
  return make.template operator()<4, kLaneBytes>();
}

}  // namespace ks::cuda
