#pragma once
// Users' kernels the tests run in more than one place (CLI, session, runner), as a user would write them.
namespace ks::test {

// The built-in box filter at radius 1 on u8 images, rounded as the built-in rounds, plus a declared `bias` added
// to every value (0 by default: then it equals box radius 1 byte for byte).
inline constexpr char kSmoothU8WithBias[] = R"(// @family stencil
// @param bias int [0, 10] = 0
__global__ void smooth_u8(ks::InImage<unsigned char> in, ks::OutImage<unsigned char> out, int bias) {
  const int x = ks::global_x(), y = ks::global_y();
  if (!out.contains(x, y)) return;
  for (int c = 0; c < in.channels; ++c) {
    int sum = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) sum += in.at(x + dx, y + dy, c);
    out.set(x, y, c, static_cast<unsigned char>(min(255, (sum + 4) / 9 + bias)));
  }
}
)";

// Array kernels on the basics lab's inputs (vecadd: a, b -> c; reduce: x -> the sum), right and wrong the way
// learners get them wrong at sizes that are no multiple of the block.
inline constexpr char kVecaddRight[] = R"(// @family array
__global__ void vecadd_right(const float* a, const float* b, float* out, int n) {
  const int i = ks::global_index();
  if (i < n) out[i] = a[i] + b[i];
}
)";

// Handles the last element as a "tail" and forgets b there: wrong exactly at n - 1, by |b[n - 1]|.
inline constexpr char kVecaddForgetsTheTail[] = R"(// @family array
__global__ void vecadd_tail(const float* a, const float* b, float* out, int n) {
  const int i = ks::global_index();
  if (i < n - 1) out[i] = a[i] + b[i];
  else if (i == n - 1) out[i] = a[i];
}
)";

// The reduce_sum template's shared-memory tree with the threads past n padding with 1 instead of 0: right when n is a multiple of the block,
// too large by (threads past n) otherwise.
inline constexpr char kReducePadsWithOne[] = R"(// @family array
// @output scalar
__global__ void reduce_pads(const float* in, float* out, int n) {
  __shared__ float partial[1024];
  const int tid = static_cast<int>(threadIdx.x);
  const int i = ks::global_index();
  partial[tid] = i < n ? in[i] : 1.f;
  __syncthreads();
  for (int stride = static_cast<int>(blockDim.x) / 2; stride > 0; stride /= 2) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}
)";

// Life as the template writes it, but born on 3 or 6 neighbours (HighLife's B36/S23): a wrong rule for Conway's
// B3/S23, which a soup shows within a few steps.
inline constexpr char kLifeBornOn3Or6[] = R"(// @family step
__global__ void highlife_step(const unsigned char* state, unsigned char* next, int width, int height) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (x >= width || y >= height) return;
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (dx != 0 || dy != 0) n += state[ks::floor_mod(y + dy, height) * width + ks::floor_mod(x + dx, width)];
  const bool alive = state[y * width + x] != 0;
  next[y * width + x] = (alive && (n == 2 || n == 3)) || (!alive && (n == 3 || n == 6)) ? 1 : 0;
}
)";

// One explicit step of the heat equation on a torus (the built-in heat with boundary=periodic): u + r (sum of
// the 4 neighbours - 4 u), with r a declared parameter (the built-in's diffusivity * dt, 0.2 by default). The
// neighbours are summed as the built-in sums them and the products rounded separately (__fmul_rn, __fadd_rn), so
// it agrees with the CPU reference to the last bit.
inline constexpr char kHeatPeriodic[] = R"(// @family step
// @param r float [0, 0.25] = 0.2   diffusivity * dt
__global__ void heat_step(const float* state, float* next, int width, int height, float r) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (x >= width || y >= height) return;
  const float u = state[y * width + x];
  const float n = state[ks::floor_mod(y - 1, height) * width + x];
  const float s = state[ks::floor_mod(y + 1, height) * width + x];
  const float w = state[y * width + ks::floor_mod(x - 1, width)];
  const float e = state[y * width + ks::floor_mod(x + 1, width)];
  const float sum = __fadd_rn(__fadd_rn(w, e), __fadd_rn(n, s));
  next[y * width + x] = __fadd_rn(u, __fmul_rn(r, __fadd_rn(sum, -4.0f * u)));
}
)";

// ks::remap of the prelude (core/border_remap.hpp through NVRTC) at every position given, as an int array kernel.
inline constexpr char kBorderRemaps[] = R"(// @family array
// @output array
// @param size int [1, 64] = 7   the image side the positions are remapped into
// @param border int [0, 4] = 0  ks::Border: replicate, reflect, reflect101, wrap, constant
__global__ void remaps(const int* positions, int* out, int n, int size, int border) {
  const int i = ks::global_index();
  if (i < n) out[i] = ks::remap(positions[i], size, static_cast<ks::Border>(border));
}
)";

}  // namespace ks::test
