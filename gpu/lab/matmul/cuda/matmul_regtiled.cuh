#pragma once
// `regtiled`: the register-tiled SGEMM of the lesson. A block of 16 x 16 threads computes a 128 x 128 tile of
// C; each thread keeps an 8 x 8 block of it in registers (rows ty*4 + {0..3} and 64 + ty*4 + {0..3}, columns
// likewise from tx, so that its shared-memory reads are 16-byte vectors without bank conflicts). Per step of
// 8 along k, a thread issues 4 vector loads from shared memory for 64 FMAs. The tiles of A (stored
// transposed, so a column is contiguous) and B are double-buffered: the next step's tile is loaded from
// global memory into registers while the current one is used, then stored to the other buffer, with one
// barrier per step.
#include <cuda_runtime.h>

namespace ks::lab::kernels {

namespace regtiled {
constexpr int kBM = 128, kBN = 128, kBK = 8, kThreadsX = 16, kThreadsY = 16;
constexpr int kPad = 4;  // A's transposed rows are 132 floats: the transposing stores hit 32 distinct banks
}  // namespace regtiled

// row[col .. col + 3] where col + i < limit and the row exists, zeros elsewhere. kVec: the caller guarantees
// a 16-byte aligned row and limit % 4 == 0, so the four values are all inside or all outside.
template <bool kVec>
__device__ __forceinline__ float4 load4(const float* row, bool row_ok, int col, int limit) {
  if constexpr (kVec) {
    return row_ok && col < limit ? *reinterpret_cast<const float4*>(row + col) : make_float4(0, 0, 0, 0);
  } else {
    float v[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = row_ok && col + i < limit ? row[col + i] : 0.0f;
    return make_float4(v[0], v[1], v[2], v[3]);
  }
}

// kVec: k and n are multiples of 4 and a, b, c 16-byte aligned (16-byte global loads and stores); otherwise
// the same kernel with single loads and stores.
template <bool kVec>
__global__ void __launch_bounds__(256, 2)
    matmul_regtiled_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                           int m, int n, int k) {
  using namespace regtiled;
  __shared__ __align__(16) float as[2][kBK][kBM + kPad];
  __shared__ __align__(16) float bs[2][kBK][kBN];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kThreadsX + tx;
  const int row0 = blockIdx.y * kBM, col0 = blockIdx.x * kBN;

  // Loading roles: A's tile (128 x 8) as 256 vectors of 4 along k; B's tile (8 x 128) as 256 vectors along n.
  const int a_row = tid >> 1, a_col = (tid & 1) * 4;
  const int b_row = tid >> 5, b_col = (tid & 31) * 4;
  const bool a_row_ok = row0 + a_row < m;
  const float* a_src = a + (long long)(a_row_ok ? row0 + a_row : 0) * k;
  const auto load_a = [&](int k0) { return load4<kVec>(a_src, a_row_ok, k0 + a_col, k); };
  const auto load_b = [&](int k0) {
    const bool ok = k0 + b_row < k;
    return load4<kVec>(b + (long long)(ok ? k0 + b_row : 0) * n, ok, col0 + b_col, n);
  };
  const auto store = [&](int buf, float4 va, float4 vb) {
    as[buf][a_col + 0][a_row] = va.x;
    as[buf][a_col + 1][a_row] = va.y;
    as[buf][a_col + 2][a_row] = va.z;
    as[buf][a_col + 3][a_row] = va.w;
    *reinterpret_cast<float4*>(&bs[buf][b_row][b_col]) = vb;
  };

  float acc[8][8] = {};
  store(0, load_a(0), load_b(0));
  __syncthreads();
  const int steps = (k + kBK - 1) / kBK;
  for (int step = 0; step < steps; ++step) {
    const int buf = step & 1;
    const bool more = step + 1 < steps;
    float4 next_a, next_b;
    if (more) {
      next_a = load_a((step + 1) * kBK);
      next_b = load_b((step + 1) * kBK);
    }
#pragma unroll
    for (int p = 0; p < kBK; ++p) {
      const float4 a0 = *reinterpret_cast<const float4*>(&as[buf][p][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&as[buf][p][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&bs[buf][p][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&bs[buf][p][64 + tx * 4]);
      const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += av[i] * bv[j];
    }
    // Iteration step reads buffer buf and fills buf ^ 1; the barrier of the previous step ended every read of
    // buf ^ 1, and this one ends every read of buf before the next step fills it.
    if (more) store(buf ^ 1, next_a, next_b);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
    if (row >= m) continue;
    float* crow = c + (long long)row * n;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int col = col0 + half * 64 + tx * 4;
      const float* v = &acc[i][half * 4];
      if constexpr (kVec) {
        if (col < n) *reinterpret_cast<float4*>(crow + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < n) crow[col + j] = v[j];
      }
    }
  }
}

}  // namespace ks::lab::kernels
