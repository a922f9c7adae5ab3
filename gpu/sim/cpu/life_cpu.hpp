#pragma once
// Life on the host: the byte-per-cell reference (the ground truth of the tests) and the bit-packed variant that
// runs the CUDA kernel's word arithmetic (sim_math.hpp) on the CPU.
#include <cstdint>
#include <vector>

#include "core/image.hpp"
#include "sim/density_view.hpp"
#include "sim/sim_math.hpp"

namespace ks {
class ThreadPool;
}

namespace ks::sim {
struct Brush;
}

namespace ks::sim::cpu {

// One generation: `in` and `out` are width x height u8 images of 0 / 255 (kAlive).
void life_step(const Image& in, Image& out, bool torus, const LifeTable& table, ThreadPool& pool);

// A bit-packed grid: words_per_row(width) words per row, no other padding; bits past the width are zero.
struct LifeWords {
  int width = 0, height = 0, words = 0;  // words per row
  std::vector<std::uint64_t> data;
  std::uint64_t* row(int y) { return data.data() + std::size_t(y) * std::size_t(words); }
  const std::uint64_t* row(int y) const { return data.data() + std::size_t(y) * std::size_t(words); }
};

// All cells dead. OutOfMemory naming the size when the host cannot hold it.
LifeWords empty_life_words(int width, int height);
LifeWords pack_life(const Image& cells);
Image unpack_life(const LifeWords& words);
// Writes rows of packed words (row stride `stride` words) as u8 0 / 255 cells.
void unpack_life_rows(const std::uint64_t* words, std::size_t stride, int width, int height, Image& cells);

void life_step_bits(const LifeWords& in, LifeWords& out, bool torus, const LifeMasks& masks, ThreadPool& pool);

// Live cells, and the live cells of each pixel of a density window (sim/density_view.hpp), on the words.
long long count_live(const LifeWords& words);
Image density_view(const LifeWords& words, const DensityWindow& window, ThreadPool& pool);
// A brush (sim_backend.hpp) on the words, with no byte copy of the grid.
void paint_life_words(LifeWords& words, const Brush& brush);

}  // namespace ks::sim::cpu
