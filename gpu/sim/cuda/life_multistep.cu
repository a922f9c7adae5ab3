// Life, "multistep": K generations per pass over the bit-packed grid (temporal blocking), so a generation
// costs 2/K bits of memory traffic per cell instead of 2. The grid is the bitpacked variant's (64 cells per
// 64-bit word, padding bits zero), read here as 32-bit words: bit j of word m of a row is cell 32 m + j.
//
// Each warp owns a tile of kMultistepTileRows rows x 30 words and holds a column of kMultistepTileRows + 2K
// rows of one word per lane in registers: lanes 0 and 31 hold the words west and east of the tile and the K
// rows above and below are loaded too. A generation updates every row it can (the rows at the column's ends
// lack a neighbour, so the valid part shrinks by a row at each end per generation); west and east neighbour
// bits cross between lanes by warp shuffles and enter a word by funnel shifts; the total is the bit-sliced
// adder of sim_math.hpp and the rule its multiplexer tree, or a few logic operations for Conway's B3/S23. A
// cell's error travels one cell per generation, so after K <= 32 generations the tile's 30 inner words and
// its kMultistepTileRows middle rows are exact and are written out. No shared memory, no branch per cell.
//
// Borders. Dead: rows outside the grid, words outside it and the padding bits of the last word are forced to
// zero after every generation, as the one-step kernels read them. Torus: the warp works on the periodic
// tiling of the plane by the grid, which evolves exactly as the torus does; a word of the tiling that is not
// a stored word (west of cell 0, east of the last cell, or across the seam when the width is not a multiple
// of 32) is assembled from the cells it covers, modulo the width, and rows wrap modulo the height, so any
// size works, even a grid narrower or lower than the halo.
#include "core/cuda/check.cuh"
#include "core/floor_mod.hpp"
#include "sim/cuda/sim_launch.cuh"
#include "sim/life_multistep.hpp"

namespace ks::cuda {

namespace {

using Word = std::uint32_t;
using sim::kMultistepTileRows;
constexpr int kWarpWords = 32;
constexpr int kTileWords = kWarpWords - 2;  // the words a warp writes
constexpr int kMaxWarpsPerBlock = 8;
constexpr int kMaxThreadsPerBlock = kWarpWords * kMaxWarpsPerBlock;
constexpr unsigned kFullWarp = 0xffffffffu;

struct WordGrid {
  Plane plane;
  int width, height;
  int words;       // 32-bit words that hold cells: ceil(width / 32)
  Word last_mask;  // the valid bits of word words - 1
};

// Word j (any integer) of the periodic tiling of row `row`: cells 32 j .. 32 j + 31, each modulo the width.
__device__ Word tiling_word(const Word* row, int j, int width) {
  if (j >= 0 && 32 * j + 32 <= width) return __ldg(row + j);
  int x = floor_mod(32 * j, width);  // |j| <= 2049: no overflow
  Word w = 0;
  for (int filled = 0; filled < 32;) {
    const int bit = x % 32;
    const int n = min(32 - bit, min(width - x, 32 - filled));
    Word part = __ldg(row + x / 32) >> bit;
    if (n < 32) part &= (Word(1) << n) - 1;
    w |= part << filled;
    filled += n;
    x = x + n == width ? 0 : x + n;
  }
  return w;
}

// Row y's word j as the generation reads it: the stored word inside the grid, dead outside it.
template <bool Torus>
__device__ Word load_word(const WordGrid& g, int y, int j) {
  if (Torus) return tiling_word(g.plane.row<const Word>(floor_mod(y, g.height)), j, g.width);
  if (y < 0 || y >= g.height || j < 0 || j >= g.words) return 0;
  return __ldg(g.plane.row<const Word>(y) + j);
}

// The 3-sum of each cell of `c` with its west and east neighbours, whose words the lanes beside hold. Lane
// 0's west and lane 31's east are their own words (shuffles do not leave the warp): wrong, and only in the
// halo.
__device__ __forceinline__ sim::RowSumOf<Word> lane_row_sum(Word c) {
  const Word west = __shfl_up_sync(kFullWarp, c, 1), east = __shfl_down_sync(kFullWarp, c, 1);
  // sim::row_sum(c, west >> 31, east << 31), with each shifted word one funnel shift.
  sim::RowSumOf<Word> s;
  sim::add3<Word>(__funnelshift_l(west, c, 1), c, __funnelshift_r(c, east, 1), s.s0, s.s1);
  return s;
}

template <int K, bool Torus, bool Conway>
__global__ void __launch_bounds__(kMaxThreadsPerBlock)
    life_multistep_kernel(WordGrid in, Plane out, sim::LifeMasks masks) {
  constexpr int R = kMultistepTileRows + 2 * K;  // rows each lane holds
  const int lane = int(threadIdx.x);
  const int j = int(blockIdx.x) * kTileWords - 1 + lane;  // this lane's word of the tiling
  const int y_out = (int(blockIdx.y) * int(blockDim.y) + int(threadIdx.y)) * kMultistepTileRows;
  if (y_out >= in.height) return;  // the whole warp: its tile is below the grid
  const int y_top = y_out - K;     // the row the column starts at

  Word row[R];
#pragma unroll
  for (int r = 0; r < R; ++r) row[r] = load_word<Torus>(in, y_top + r, j);

  // Dead border: what a generation keeps of this lane's word, and whether the warp's column reaches outside
  // the grid at all (the same for all its lanes, so the forcing below is a branch the warps inside the grid
  // skip).
  const Word keep = j < 0 || j >= in.words ? 0 : j == in.words - 1 ? in.last_mask : ~Word(0);
  const int first_word = int(blockIdx.x) * kTileWords - 1;
  const bool at_edge = !Torus && (y_top < 0 || y_top + R > in.height || first_word < 0 ||
                                  first_word + kWarpWords > in.words - 1);

#pragma unroll
  for (int g = 1; g <= K; ++g) {
    // Rows g .. R-1-g are valid after generation g; each needs the old rows around it, so the sums roll down
    // ahead of the row that is overwritten.
    sim::RowSumOf<Word> above = lane_row_sum(row[g - 1]), mid = lane_row_sum(row[g]);
#pragma unroll
    for (int r = g; r < R - g; ++r) {
      const sim::RowSumOf<Word> below = lane_row_sum(row[r + 1]);
      row[r] = Conway ? sim::conway_word_next<Word>(row[r], above, mid, below)
                      : sim::life_word_next<Word>(row[r], above, mid, below, masks);
      above = mid;
      mid = below;
    }
    if (at_edge) {
#pragma unroll
      for (int r = g; r < R - g; ++r) row[r] = unsigned(y_top + r) < unsigned(in.height) ? row[r] & keep : 0;
    }
  }

  if (lane < 1 || lane > kTileWords || j >= in.words) return;
  const Word mask = j == in.words - 1 ? in.last_mask : ~Word(0);
#pragma unroll
  for (int r = K; r < K + kMultistepTileRows; ++r) {
    const int y = y_top + r;
    if (y < in.height) out.row<Word>(y)[j] = row[r] & mask;
  }
}

template <int K, bool Torus>
auto* pick_kernel(bool conway) {
  return conway ? &life_multistep_kernel<K, Torus, true> : &life_multistep_kernel<K, Torus, false>;
}

template <int K>
auto* pick_kernel(bool torus, bool conway) {
  return torus ? pick_kernel<K, true>(conway) : pick_kernel<K, false>(conway);
}

using KernelPtr = void (*)(WordGrid, Plane, sim::LifeMasks);

KernelPtr kernel_for(int steps, bool torus, bool conway) {
  switch (steps) {
    case 1:
      return pick_kernel<1>(torus, conway);
    case 2:
      return pick_kernel<2>(torus, conway);
    case 4:
      return pick_kernel<4>(torus, conway);
    case 8:
      return pick_kernel<8>(torus, conway);
    default:
      throw Error(ErrorKind::Internal, "life_multistep: no kernel for " + std::to_string(steps) + " steps");
  }
}

}  // namespace

SimLaunch make_life_multistep_launch(const sim::SimModel& m, BlockShape block) {
  const int k = m.life.steps_per_pass;
  if (!sim::is_multistep_pass(k))
    throw_usage("life multistep: steps_per_pass " + std::to_string(k) + " is not one of 1, 2, 4, 8",
                "give -p steps_per_pass=8 (or 1, 2, 4)");
  if (block.x != kWarpWords || block.y < 1 || block.y > kMaxWarpsPerBlock)
    throw_usage("life multistep runs one warp across each tile: block " + to_string(block) + " does not fit",
                "give --block 32xN with N = 1 .. 8 (warps per block), e.g. 32x8");
  const bool conway = m.life.rule == sim::parse_life_rule("B3/S23");
  SimLaunch l;
  l.shape = life_launch_shape(m.life.torus, kernel_for(k, true, conway), kernel_for(k, false, conway),
                              "life_multistep_k" + std::to_string(k) + (conway ? "_b3s23" : ""), block);
  const dim3 b = l.shape.block;
  const int words = (m.width + 31) / 32;
  const dim3 grid(ceil_div(words, kTileWords), ceil_div(ceil_div(m.height, kMultistepTileRows), int(b.y)));
  check_grid(grid);
  const sim::LifeMasks masks = sim::life_masks(m.life.rule);
  const Word last_mask = m.width % 32 == 0 ? ~Word(0) : (Word(1) << (m.width % 32)) - 1;
  l.steps_per_pass = k;
  l.run_fewer = [=, w = m.width, h = m.height, torus = m.life.torus](cudaStream_t s, const Planes& in,
                                                                     const Planes& out, int steps) {
    kernel_for(steps, torus, conway)<<<grid, b, 0, s>>>(WordGrid{in.p[0], w, h, words, last_mask}, out.p[0],
                                                        masks);
  };
  l.run = [run = l.run_fewer, k](cudaStream_t s, const Planes& in, const Planes& out) { run(s, in, out, k); };
  return l;
}

}  // namespace ks::cuda
