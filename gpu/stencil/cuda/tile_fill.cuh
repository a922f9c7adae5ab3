#pragma once
// How a block fills a shared tile from global memory, whatever a cell is (a quad of one-channel elements, an RGBA
// pixel): the block's threads walk the tile's cells in row-major order, `threads` cells apart, and each thread
// issues a batch of loads before it stores any of them.
// Why not two nested loops (rows over threadIdx.y, cells over threadIdx.x): a 32x8 block filling a 3x3 tile of
// 10 quads a row left 22 of every 32 lanes idle, each thread took its five loads one after another, and the
// lesson box (issue-bound) spent a third of its instructions there (docs/PERF.md: this walk made it a quarter
// faster). Here every lane has a cell and a batch of loads is in flight at once.
namespace ks::cuda {

// Fills `rows` x `cells` cells of type U (tile row t at tile + t * pitch); fetch(t, c) gives cell (t, c). Batch:
// loads in flight per thread before their stores (registers: Batch cells). All threads of the block take part;
// the caller synchronises.
template <class U, int Batch, class Fetch>
__device__ __forceinline__ void fill_tile(unsigned char* tile, int pitch, int cells, int rows, const Fetch& fetch) {
  const unsigned threads = blockDim.x * blockDim.y, n = unsigned(cells);
  // The thread's cell (t, c), advanced by `threads` cells a step: (dt, dc) rows and cells (unsigned divisions,
  // half the instructions of signed ones, by the same divisor).
  const int dt = int(threads / n), dc = int(threads % n);
  const unsigned id = threadIdx.y * blockDim.x + threadIdx.x;
  int t = int(id / n), c = int(id % n);
  while (t < rows) {
    U v[Batch];
    int at[Batch];
#pragma unroll
    for (int k = 0; k < Batch; ++k) at[k] = -1;
#pragma unroll
    for (int k = 0; k < Batch; ++k) {
      if (t >= rows) break;  // a small tile: no instructions for the batch's unused slots
      at[k] = t * pitch + c * int(sizeof(U));
      v[k] = fetch(t, c);
      t += dt;
      c += dc;
      if (c >= cells) {
        c -= cells;
        ++t;
      }
    }
#pragma unroll
    for (int k = 0; k < Batch; ++k)
      if (at[k] >= 0) *reinterpret_cast<U*>(tile + at[k]) = v[k];
  }
}

}  // namespace ks::cuda
