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

}  // namespace ks::test
