// ks_bench_box_designs: three designs of the u8 3x3 box on an 8192^2 image, side by side with a device copy,
// each checked against a CPU reference on the interior (the designs leave the border out). It exists because
// the project's separable u8 kernel (separable_3x3_packed.cu) misses issue 2's target (0.065 ms on an H100)
// while the same walk, written alone, meets it (docs/PERF.md, 2026-11-23): it tells the next change what a
// lean kernel reaches on the machine at hand, so that the project's kernel can be brought to it and the gap
// explained.
//   walk  one thread per 8 or 16 bytes of a row, walking R rows, A rows of loads ahead (the project's
//   design),
//         30 of 32 lanes produce output (the other two supply the horizontal neighbours by shuffle);
//   pipe  a warp per 256-byte strip, rows copied asynchronously (cp.async) into an S-row ring in shared
//   memory,
//         horizontal sums from shared memory, all 32 lanes produce output;
//   div   umulhi (multiply-high by ceil(2^32/9)) or fdiv (one FMA whose rounding gives round(s/9) exactly,
//   see kC).
// Run by hand on the GPU machine (scripts/gpu-check full runs it); without a device it says so and exits 0.
#include <cuda_pipeline.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

// Every CUDA call checked: a bench that times failed launches reports nothing true.
#define CK(x)                                                             \
  do {                                                                    \
    cudaError_t e = (x);                                                  \
    if (e != cudaSuccess) {                                               \
      printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

using u8 = std::uint8_t;
using u32 = std::uint32_t;

// fdiv: for a window sum s < 2^16, the float 2^23 + s (its bits: 0x4B000000 | s) times kC plus kOff is
// 2^23 + s*kC exactly before the FMA's one rounding, and kC = 1/9 - 1/(9*2^24), so that rounding to an
// integer gives round(s/9) = floor((s + 4)/9), the OpenCV rounding (s/9 is never a tie); the low byte of the
// result's bits is the quotient. kC and 2^23 * kC = 932067.5 are both exact floats, so kOff = 2^23 - 932067.5
// is too.
constexpr float kC = 1864135.0f / 16777216.0f;
constexpr float kOff = 7456540.5f;

template <bool FDIV>
__device__ __forceinline__ void div9(u32 s, u32& qlo, u32& qhi) {
  if constexpr (FDIV) {
    qlo = __float_as_uint(__fmaf_rn(__uint_as_float(__byte_perm(s, 0x4B000000u, 0x7610)), kC, kOff));
    qhi = __float_as_uint(__fmaf_rn(__uint_as_float(__byte_perm(s, 0x4B000000u, 0x7632)), kC, kOff));
  } else {
    const u32 m = 477218589u;  // ceil(2^32/9)
    qlo = __umulhi(s & 0xffffu, m);
    qhi = __umulhi(s >> 16, m);
  }
}
template <bool FDIV>
__device__ __forceinline__ u32 half2() {
  return FDIV ? 0u : (4u | (4u << 16));
}

// ---------------- copy ----------------
__global__ void copy_kernel(const uint4* in, uint4* out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// ---------------- walk: per-thread rows, 30 useful lanes of 32 ----------------
template <int W>
using Bytes = std::conditional_t<W == 8, uint2, uint4>;
template <int W>
__device__ __forceinline__ u32 word(const Bytes<W>& q, int k) {
  if constexpr (W == 8)
    return k == 0 ? q.x : q.y;
  else
    return k == 0 ? q.x : k == 1 ? q.y : k == 2 ? q.z : q.w;
}
template <int W>
__device__ __forceinline__ void unpack(const Bytes<W>& q, u32 (&w)[W / 2]) {
#pragma unroll
  for (int k = 0; k < W / 4; ++k) {
    w[2 * k] = __byte_perm(word<W>(q, k), 0u, 0x4140);
    w[2 * k + 1] = __byte_perm(word<W>(q, k), 0u, 0x4342);
  }
}

template <int W, int AHEAD, bool FDIV>
__global__ void __launch_bounds__(256)
    walk_kernel(const u8* in, u8* out, int width, int height, int pitch, int R) {
  constexpr int K = W / 2;
  const int lane = threadIdx.x & 31;
  const int g = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int e0 = (g * 30 + lane) * W;
  const bool writes = lane >= 1 && lane <= 30 && e0 + W <= width - 1;
  e0 = min(e0, width - W);
  const int y0 = 1 + (blockIdx.y * blockDim.y + threadIdx.y) * R;
  if (y0 >= height - 1) return;  // whole warp (threadIdx.y uniform per warp with blockDim.x multiple of 32)
  const int n = min(R, height - 1 - y0);
  const u8* src = in + e0;
  u32 p[K], c[K], nx[K];
  Bytes<W> ahead[AHEAD];
  unpack<W>(__ldg(reinterpret_cast<const Bytes<W>*>(src + size_t(y0 - 1) * pitch)), p);
  unpack<W>(__ldg(reinterpret_cast<const Bytes<W>*>(src + size_t(y0) * pitch)), c);
#pragma unroll
  for (int i = 0; i < AHEAD; ++i)
    ahead[i] =
        i <= n - 1 ? __ldg(reinterpret_cast<const Bytes<W>*>(src + size_t(y0 + 1 + i) * pitch)) : Bytes<W>{};
#pragma unroll AHEAD
  for (int j = 0; j < n; ++j) {
    unpack<W>(ahead[0], nx);
#pragma unroll
    for (int i = 0; i < AHEAD - 1; ++i) ahead[i] = ahead[i + 1];
    const int next = y0 + j + 1 + AHEAD;
    ahead[AHEAD - 1] =
        next <= y0 + n ? __ldg(reinterpret_cast<const Bytes<W>*>(src + size_t(next) * pitch)) : Bytes<W>{};
    u32 v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = p[k] + c[k] + nx[k];
    u32 left[K], right[K];
    const u32 l = __shfl_up_sync(0xffffffffu, v[K - 1], 1);
    const u32 r = __shfl_down_sync(0xffffffffu, v[0], 1);
    left[0] = __byte_perm(l, v[0], 0x5432);
#pragma unroll
    for (int k = 1; k < K; ++k) left[k] = __byte_perm(v[k - 1], v[k], 0x5432);
#pragma unroll
    for (int k = 0; k < K - 1; ++k) right[k] = left[k + 1];
    right[K - 1] = __byte_perm(v[K - 1], r, 0x5432);
    if (writes) {
      u32 q[2 * K];
#pragma unroll
      for (int k = 0; k < K; ++k)
        div9<FDIV>(left[k] + v[k] + right[k] + half2<FDIV>(), q[2 * k], q[2 * k + 1]);
      u32 w[W / 4];
#pragma unroll
      for (int k = 0; k < W / 4; ++k)
        w[k] = __byte_perm(__byte_perm(q[4 * k], q[4 * k + 1], 0x0040),
                           __byte_perm(q[4 * k + 2], q[4 * k + 3], 0x0040), 0x5410);
      u8* o = out + size_t(y0 + j) * pitch + e0;
      if constexpr (W == 8)
        *reinterpret_cast<uint2*>(o) = make_uint2(w[0], w[1]);
      else
        *reinterpret_cast<uint4*>(o) = make_uint4(w[0], w[1], w[2], w[3]);
    }
#pragma unroll
    for (int k = 0; k < K; ++k) p[k] = c[k], c[k] = nx[k];
  }
}

// ---------------- pipe: per-warp cp.async ring in shared memory, all 32 lanes useful ----------------
// Warp strip: 256 bytes [x0, x0+256), row buffer 288 bytes [x0-16, x0+272).
constexpr int kRowBuf = 288;

// Horizontal sums of one row for the lane's 8 bytes, as 4 words of two 16-bit sums.
__device__ __forceinline__ void hsum(const u8* row, u32 (&h)[4]) {
  const uint2 own = *reinterpret_cast<const uint2*>(row);
  const u32 L = *reinterpret_cast<const u32*>(row - 4);
  const u32 Rw = *reinterpret_cast<const u32*>(row + 8);
  const u32 a = own.x, b = own.y;
  const u32 P0 = __byte_perm(a, 0u, 0x4140), P1 = __byte_perm(a, 0u, 0x4342);
  const u32 P2 = __byte_perm(b, 0u, 0x4140), P3 = __byte_perm(b, 0u, 0x4342);
  const u32 l0 = __byte_perm(L, P0, 0x5453);   // (b-1, b0)
  const u32 l1 = __byte_perm(a, 0u, 0x4241);   // (b1, b2)
  const u32 l2 = __byte_perm(a, P2, 0x5453);   // (b3, b4)
  const u32 l3 = __byte_perm(b, 0u, 0x4241);   // (b5, b6)
  const u32 r3 = __byte_perm(P3, Rw, 0x1412);  // (b7, b8)
  h[0] = l0 + P0 + l1;
  h[1] = l1 + P1 + l2;
  h[2] = l2 + P2 + l3;
  h[3] = l3 + P3 + r3;
}

template <int S, bool FDIV>
__global__ void __launch_bounds__(256)
    pipe_kernel(const u8* in, u8* out, int width, int height, int pitch, int R) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
  const int x0 = (blockIdx.x * (blockDim.x >> 5) + wib) * 256;
  unsigned char* const ring = smem + wib * S * kRowBuf;
  unsigned char* const ring_end = ring + S * kRowBuf;
  const int y0 = 1 + blockIdx.y * R;
  if (y0 >= height - 1 || x0 >= width) return;
  const int n = min(R, height - 1 - y0);
  const int rows_in = n + 2;
  const int col = min(max(x0 - 16 + lane * 16, 0), width - 16);
  const u8* next_src = in + size_t(y0 - 1) * pitch + col;
  int next_i = 0;
  auto issue = [&](unsigned char* dst) {
    if (lane < 18 && next_i < rows_in) __pipeline_memcpy_async(dst + lane * 16, next_src, 16);
    __pipeline_commit();
    next_src += pitch;
    ++next_i;
  };
#pragma unroll
  for (int i = 0; i < S; ++i) issue(ring + i * kRowBuf);
  unsigned char* stage = ring;
  auto consume = [&](u32(&h)[4]) {
    __pipeline_wait_prior(S - 1);
    __syncwarp();
    hsum(stage + 16 + lane * 8, h);
    __syncwarp();
    issue(stage);
    stage += kRowBuf;
    if (stage == ring_end) stage = ring;
  };
  const int e0 = x0 + lane * 8;
  const bool writes = e0 >= 8 && e0 + 8 <= width - 8;
  u32 hp[4], hc[4], hn[4];
  u8* o = out + size_t(y0) * pitch + e0;
  consume(hp);
  consume(hc);
#pragma unroll 4
  for (int i = 2; i < rows_in; ++i) {
    consume(hn);
    if (writes) {
      u32 q[8];
#pragma unroll
      for (int k = 0; k < 4; ++k) div9<FDIV>(hp[k] + hc[k] + hn[k] + half2<FDIV>(), q[2 * k], q[2 * k + 1]);
      const u32 w0 = __byte_perm(__byte_perm(q[0], q[1], 0x0040), __byte_perm(q[2], q[3], 0x0040), 0x5410);
      const u32 w1 = __byte_perm(__byte_perm(q[4], q[5], 0x0040), __byte_perm(q[6], q[7], 0x0040), 0x5410);
      *reinterpret_cast<uint2*>(o) = make_uint2(w0, w1);
    }
    o += pitch;
#pragma unroll
    for (int k = 0; k < 4; ++k) hp[k] = hc[k], hc[k] = hn[k];
  }
}

// ---------------- host ----------------
__global__ void fill_random(u8* p, size_t n, u32 seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    u32 x = u32(i) * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    p[i] = u8(x >> 7);
  }
}

// Median of `reps` runs after 3 warm-ups, each timed alone by events (as the project's engine times a
// launch).
static float time_ms(const std::function<void()>& f, int reps = 30) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("ks_bench_box_designs: no CUDA device; nothing to measure\n");
    return 0;
  }
  const int Wd = 8192, H = 8192, pitch = Wd;
  const size_t n = size_t(pitch) * H;
  u8 *in, *out;
  CK(cudaMalloc(&in, n));
  CK(cudaMalloc(&out, n));
  fill_random<<<1024, 256>>>(in, n, 12345u);
  CK(cudaDeviceSynchronize());
  std::vector<u8> h_in(n), h_out(n), ref(n);
  CK(cudaMemcpy(h_in.data(), in, n, cudaMemcpyDeviceToHost));
  for (int y = 1; y < H - 1; ++y)
    for (int x = 1; x < Wd - 1; ++x) {
      int s = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) s += h_in[size_t(y + dy) * pitch + x + dx];
      ref[size_t(y) * pitch + x] = u8((s + 4) / 9);
    }
  const double bytes = 2.0 * n;
  float copy_ms = time_ms([&] { CK(cudaMemcpyAsync(out, in, n, cudaMemcpyDeviceToDevice)); });
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float copyk_ms = time_ms([&] {
    copy_kernel<<<sms * 16, 256>>>(reinterpret_cast<const uint4*>(in), reinterpret_cast<uint4*>(out), n / 16);
  });
  const double copy_gbs = bytes / copy_ms / 1e6;
  // The copy of this image's 64 MB, for scale: shorter than the 1 GB copy behind the project's "copy
  // bandwidth".
  printf("memcpy D2D %.4f ms (%.0f GB/s)  copy kernel %.4f ms (%.0f GB/s)\n", copy_ms, copy_gbs, copyk_ms,
         bytes / copyk_ms / 1e6);
  int wrong = 0;
  auto check = [&](const char* name, const std::function<void()>& f) {
    CK(cudaMemset(out, 0xCD, n));
    f();
    CK(cudaDeviceSynchronize());
    CK(cudaGetLastError());
    CK(cudaMemcpy(h_out.data(), out, n, cudaMemcpyDeviceToHost));
    long bad = 0;
    int checked_x0 = 16;  // the designs skip the first and last 16 bytes
    for (int y = 1; y < H - 1; ++y)
      for (int x = checked_x0; x < Wd - 16; ++x)
        if (h_out[size_t(y) * pitch + x] != ref[size_t(y) * pitch + x]) {
          if (bad < 3)
            printf("  bad %s at %d,%d: %d vs %d\n", name, x, y, h_out[size_t(y) * pitch + x],
                   ref[size_t(y) * pitch + x]);
          ++bad;
        }
    const float ms = time_ms(f);
    printf("%-40s %.4f ms  %6.0f GB/s  %5.1f%% of memcpy  %s\n", name, ms, bytes / ms / 1e6,
           100.0 * copy_ms / ms, bad ? "WRONG" : "ok");
    wrong += bad != 0;
  };
  char name[128];
  // walk
  auto walk = [&](auto kern, int W, int R, const char* label) {
    const int groups = (Wd + 30 * W - 1) / (30 * W);
    dim3 block(32, 8), grid((groups + 0) / 1, ((H - 2) + 8 * R - 1) / (8 * R));
    snprintf(name, sizeof name, "walk %s W=%d R=%d", label, W, R);
    check(name, [&] { kern<<<grid, block>>>(in, out, Wd, H, pitch, R); });
  };
  for (int R : {6, 12, 24}) {
    walk(walk_kernel<8, 3, false>, 8, R, "umulhi A3");
    walk(walk_kernel<8, 3, true>, 8, R, "fdiv A3");
  }
  for (int R : {6, 12}) {
    walk(walk_kernel<8, 6, true>, 8, R, "fdiv A6");
    walk(walk_kernel<16, 2, true>, 16, R, "fdiv A2");
    walk(walk_kernel<16, 3, true>, 16, R, "fdiv A3");
  }
  // pipe
  auto pipe = [&](auto kern, int S, int warps, int R, const char* label) {
    const int smem = warps * S * kRowBuf;
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    dim3 block(32 * warps), grid((Wd / 256 + warps - 1) / warps, (H - 2 + R - 1) / R);
    snprintf(name, sizeof name, "pipe %s S=%d warps=%d R=%d", label, S, warps, R);
    check(name, [&] { kern<<<grid, block, smem>>>(in, out, Wd, H, pitch, R); });
  };
  for (int R : {16, 32, 64}) {
    pipe(pipe_kernel<4, true>, 4, 8, R, "fdiv");
    pipe(pipe_kernel<8, true>, 8, 8, R, "fdiv");
    pipe(pipe_kernel<8, false>, 8, 8, R, "umulhi");
    pipe(pipe_kernel<12, true>, 12, 4, R, "fdiv");
    pipe(pipe_kernel<16, true>, 16, 4, R, "fdiv");
  }
  pipe(pipe_kernel<8, true>, 8, 4, 32, "fdiv");
  pipe(pipe_kernel<8, true>, 8, 2, 32, "fdiv");
  CK(cudaFree(in));
  CK(cudaFree(out));
  return wrong == 0 ? 0 : 1;
}
