// Life, "bitpacked": 64 cells per 64-bit word (bit j of word i of a row is cell 64 i + j; padding bits past
// the width stay zero). Each thread walks down a column of words: per row it reads the word and its two
// neighbours (the neighbours come from the threads beside it, so the L1 cache serves them), forms the
// horizontal 3-sums of all 64 cells with a bit-sliced full adder, adds the sums of the rows above, at and
// below into a 4-bit total, and applies the rule by a multiplexer tree over the rule's masks (sim_math.hpp,
// shared with cpu_bitpacked). The three rows' sums roll down in registers, so every word is loaded about once
// per step: 1 bit of traffic per cell each way, and any outer-totalistic rule costs the same.
#include "core/cuda/check.cuh"
#include "sim/cuda/sim_launch.cuh"

namespace ks::cuda {

namespace {

// Rows each thread walks: enough to reuse two of every three rows' sums, few enough that an 8192-row grid
// still gives the GPU several thousand warps.
constexpr int kRowsPerThread = 4;

struct PackedGrid {
  Plane words;
  int words_per_row, height, last_bit;
  std::uint64_t last_mask;
};

template <bool Torus>
__device__ __forceinline__ sim::RowSum packed_row_sum(const PackedGrid& g, int y, int i, int left, int right,
                                                      std::uint64_t& centre) {
  if (y < 0 || y >= g.height) {
    if (!Torus) {
      centre = 0;
      return {0, 0};
    }
    y = y < 0 ? y + g.height : y - g.height;
  }
  const std::uint64_t* r = g.words.row<const std::uint64_t>(y);
  centre = __ldg(r + i);
  const std::uint64_t l = __ldg(r + left), rr = __ldg(r + right);
  const bool first = i == 0, last = i == g.words_per_row - 1;
  return sim::row_sum(centre, sim::west_bit(l, first, Torus, g.last_bit),
                      sim::east_bits(rr, last, Torus, g.last_bit));
}

template <bool Torus>
__global__ void __launch_bounds__(1024)
    life_bitpacked_kernel(PackedGrid in, Plane out, sim::LifeMasks masks) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y0 = int(blockIdx.y * blockDim.y + threadIdx.y) * kRowsPerThread;
  if (i >= in.words_per_row || y0 >= in.height) return;
  const int left = i > 0 ? i - 1 : in.words_per_row - 1;
  const int right = i < in.words_per_row - 1 ? i + 1 : 0;
  const bool last = i == in.words_per_row - 1;
  std::uint64_t c_above, cell, c_below;
  sim::RowSum above = packed_row_sum<Torus>(in, y0 - 1, i, left, right, c_above);
  sim::RowSum mid = packed_row_sum<Torus>(in, y0, i, left, right, cell);
  const int y1 = min(y0 + kRowsPerThread, in.height);
  for (int y = y0; y < y1; ++y) {
    const sim::RowSum below = packed_row_sum<Torus>(in, y + 1, i, left, right, c_below);
    std::uint64_t next = sim::life_word_next(cell, above, mid, below, masks);
    if (last) next &= in.last_mask;
    out.row<std::uint64_t>(y)[i] = next;
    above = mid;
    mid = below;
    cell = c_below;
  }
}

__global__ void unpack_words_kernel(Plane words, Plane cells, int w, int h) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= w || y >= h) return;
  const std::uint64_t word = words.row<const std::uint64_t>(y)[x / 64];
  cells.row<std::uint8_t>(y)[x] = (word >> (x % 64)) & 1 ? sim::kAlive : 0;
}

}  // namespace

SimLaunch make_life_bitpacked_launch(const sim::SimModel& m, BlockShape block) {
  auto* kernel = m.life.torus ? &life_bitpacked_kernel<true> : &life_bitpacked_kernel<false>;
  SimLaunch l;
  l.shape = life_launch_shape(m.life.torus, &life_bitpacked_kernel<true>, &life_bitpacked_kernel<false>,
                              "life_bitpacked", block);
  const dim3 b = l.shape.block;
  const int nw = sim::words_per_row(m.width);
  const dim3 grid(ceil_div(nw, b.x), ceil_div(ceil_div(m.height, kRowsPerThread), b.y));
  check_grid(grid);
  const sim::LifeMasks masks = sim::life_masks(m.life.rule);
  const int last_bit = (m.width - 1) % 64;
  const std::uint64_t last_mask = sim::last_word_mask(last_bit);
  l.run = [=, h = m.height](cudaStream_t s, const Planes& in, const Planes& out) {
    kernel<<<grid, b, 0, s>>>(PackedGrid{in.p[0], nw, h, last_bit, last_mask}, out.p[0], masks);
  };
  return l;
}

void unpack_words(const Plane& words, const Plane& cells, int width, int height, cudaStream_t s) {
  const dim3 block(64, 4);
  const dim3 grid(ceil_div(width, block.x), ceil_div(height, block.y));
  unpack_words_kernel<<<grid, block, 0, s>>>(words, cells, width, height);
  check_launch("unpack_words");
}

}  // namespace ks::cuda
