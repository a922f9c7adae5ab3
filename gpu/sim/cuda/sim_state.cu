// What the CUDA simulation backends do to a state besides stepping it: count live cells, sum a field, paint a
// brush. All on the device, so a GUI can show the population of an 8192 x 8192 grid every frame without
// copying the grid to the host.
#include "core/cuda/check.cuh"
#include "sim/cuda/sim_launch.cuh"

namespace ks::cuda {

namespace {

constexpr int kReduceThreads = 256;

// Sums `v` over the block and adds it to *total from one thread.
template <class T>
__device__ void add_block_sum(T v, T* total) {
  __shared__ T partial[kReduceThreads / 32];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    T s = 0;
    for (int i = 0; i < kReduceThreads / 32; ++i) s += partial[i];
    atomicAdd(total, s);
  }
}

// Each block reduces whole rows, striding over them; `count` maps a row and an index to the value to add.
template <class T, class F>
__global__ void __launch_bounds__(kReduceThreads) reduce_rows_kernel(int n, int h, F value, T* total) {
  T v = 0;
  for (int y = int(blockIdx.x); y < h; y += int(gridDim.x))
    for (int i = int(threadIdx.x); i < n; i += kReduceThreads) v += value(y, i);
  add_block_sum(v, total);
}

template <class T, class F>
T reduce_rows(int n, int h, F value, void* scratch, cudaStream_t s) {
  T* total = static_cast<T*>(scratch);
  check(cudaMemsetAsync(total, 0, sizeof(T), s), "cudaMemsetAsync");
  const int blocks = h < 4096 ? h : 4096;
  reduce_rows_kernel<T><<<blocks, kReduceThreads, 0, s>>>(n, h, value, total);
  check_launch("reduce_rows");
  T result = 0;
  check(cudaMemcpyAsync(&result, total, sizeof(T), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(s), "waiting for a reduction");
  return result;
}

struct LiveByte {
  Plane p;
  __device__ unsigned long long operator()(int y, int x) const { return p.row<const std::uint8_t>(y)[x] & 1; }
};
struct LiveWord {
  Plane p;
  __device__ unsigned long long operator()(int y, int i) const {
    return unsigned(__popcll(p.row<const std::uint64_t>(y)[i]));
  }
};
struct FieldValue {
  Plane p;
  __device__ double operator()(int y, int x) const { return double(p.row<const float>(y)[x]); }
};

// The brush's bounding box, clipped to the grid; empty when it misses the grid.
struct Box {
  int x0, y0, x1, y1;  // inclusive
  bool empty() const { return x0 > x1 || y0 > y1; }
};
Box clip(const sim::Brush& b, int w, int h) {
  return {std::max(0, b.x - b.radius), std::max(0, b.y - b.radius), std::min(w - 1, b.x + b.radius),
          std::min(h - 1, b.y + b.radius)};
}

__device__ bool covers(int bx, int by, int r, int x, int y) {
  const long long dx = x - bx, dy = y - by;
  return dx * dx + dy * dy <= 1LL * r * r;
}

template <class T>
__global__ void paint_cells_kernel(Plane p, Box box, int bx, int by, int r, T value) {
  const int x = box.x0 + int(blockIdx.x * blockDim.x + threadIdx.x),
            y = box.y0 + int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x > box.x1 || y > box.y1 || !covers(bx, by, r, x, y)) return;
  p.row<T>(y)[x] = value;
}

// One thread per word of the box: the bits the disc covers are set or cleared.
__global__ void paint_words_kernel(Plane p, Box box, int bx, int by, int r, bool alive) {
  const int i = box.x0 / 64 + int(blockIdx.x * blockDim.x + threadIdx.x),
            y = box.y0 + int(blockIdx.y * blockDim.y + threadIdx.y);
  if (i > box.x1 / 64 || y > box.y1) return;
  std::uint64_t bits = 0;
  for (int j = 0; j < 64; ++j) {
    const int x = 64 * i + j;
    if (x >= box.x0 && x <= box.x1 && covers(bx, by, r, x, y)) bits |= std::uint64_t(1) << j;
  }
  std::uint64_t& word = p.row<std::uint64_t>(y)[i];
  word = alive ? word | bits : word & ~bits;
}

template <class T>
void paint_cells(const Plane& p, int w, int h, const sim::Brush& b, T value, cudaStream_t s) {
  const Box box = clip(b, w, h);
  if (box.empty()) return;
  const dim3 block(32, 8), grid(ceil_div(box.x1 - box.x0 + 1, 32), ceil_div(box.y1 - box.y0 + 1, 8));
  paint_cells_kernel<T><<<grid, block, 0, s>>>(p, box, b.x, b.y, b.radius, value);
  check_launch("paint_cells");
}

}  // namespace

long long count_live_bytes(const Plane& cells, int width, int height, void* scratch, cudaStream_t s) {
  return (long long)reduce_rows<unsigned long long>(width, height, LiveByte{cells}, scratch, s);
}

long long count_live_words(const Plane& words, int words_per_row, int height, void* scratch, cudaStream_t s) {
  return (long long)reduce_rows<unsigned long long>(words_per_row, height, LiveWord{words}, scratch, s);
}

double sum_field(const Plane& field, int width, int height, void* scratch, cudaStream_t s) {
  return reduce_rows<double>(width, height, FieldValue{field}, scratch, s);
}

void paint_bytes(const Plane& cells, int width, int height, const sim::Brush& b, cudaStream_t s) {
  paint_cells<std::uint8_t>(cells, width, height, b, b.value != 0 ? sim::kAlive : std::uint8_t(0), s);
}

void paint_field(const Plane& field, int width, int height, const sim::Brush& b, float value,
                 cudaStream_t s) {
  paint_cells<float>(field, width, height, b, value, s);
}

void paint_words(const Plane& words, int width, int height, const sim::Brush& b, cudaStream_t s) {
  const Box box = clip(b, width, height);
  if (box.empty()) return;
  const dim3 block(32, 8),
      grid(ceil_div(box.x1 / 64 - box.x0 / 64 + 1, 32), ceil_div(box.y1 - box.y0 + 1, 8));
  paint_words_kernel<<<grid, block, 0, s>>>(words, box, b.x, b.y, b.radius, b.value != 0);
  check_launch("paint_words");
}

}  // namespace ks::cuda
