#include "sim/cpu/life_cpu.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <new>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "sim/sim_backend.hpp"

namespace ks::sim::cpu {

namespace {

// Rows of cells with one cell of border on each side (bit 0 of each byte: alive), so the inner loop reads
// x - 1 .. x + 1 without tests.
void fill_padded(const std::uint8_t* row, int w, bool torus, std::vector<std::uint8_t>& padded) {
  padded.resize(std::size_t(w) + 2);
  if (!row) {
    std::fill(padded.begin(), padded.end(), std::uint8_t(0));
    return;
  }
  for (int x = 0; x < w; ++x) padded[std::size_t(x) + 1] = row[x] & 1;
  padded[0] = torus ? padded[std::size_t(w)] : 0;
  padded[std::size_t(w) + 1] = torus ? padded[1] : 0;
}

}  // namespace

void life_step(const Image& in, Image& out, bool torus, const LifeTable& table, ThreadPool& pool) {
  const int w = in.width(), h = in.height();
  pool.parallel_for(0, h, [&](long long y0, long long y1) {
    std::vector<std::uint8_t> above, mid, below;
    auto source = [&](long long y) -> const std::uint8_t* {
      if (y < 0 || y >= h) {
        if (!torus) return nullptr;
        y = (y + h) % h;
      }
      return in.row<std::uint8_t>(int(y));
    };
    for (long long y = y0; y < y1; ++y) {
      fill_padded(source(y - 1), w, torus, above);
      fill_padded(source(y), w, torus, mid);
      fill_padded(source(y + 1), w, torus, below);
      std::uint8_t* dst = out.row<std::uint8_t>(int(y));
      for (int x = 0; x < w; ++x) {
        const int total = above[x] + above[x + 1] + above[x + 2] + mid[x] + mid[x + 1] + mid[x + 2] + below[x] +
                          below[x + 1] + below[x + 2];
        dst[x] = life_cell_next(mid[x + 1], total, table);
      }
    }
  });
}

LifeWords empty_life_words(int width, int height) {
  LifeWords p{width, height, words_per_row(width), {}};
  const std::size_t n = std::size_t(p.words) * std::size_t(height);
  try {
    p.data.assign(n, 0);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::OutOfMemory,
                fmt::format("could not allocate {} bytes of host memory for a {}x{} Life grid", n * 8, width, height),
                "use a smaller --size");
  }
  return p;
}

LifeWords pack_life(const Image& cells) {
  LifeWords p = empty_life_words(cells.width(), cells.height());
  for (int y = 0; y < p.height; ++y) {
    const std::uint8_t* src = cells.row<std::uint8_t>(y);
    std::uint64_t* dst = p.row(y);
    for (int x = 0; x < p.width; ++x)
      if (src[x] & 1) dst[x / 64] |= std::uint64_t(1) << (x % 64);
  }
  return p;
}

void unpack_life_rows(const std::uint64_t* words, std::size_t stride, int width, int height, Image& cells) {
  for (int y = 0; y < height; ++y) {
    const std::uint64_t* src = words + std::size_t(y) * stride;
    std::uint8_t* dst = cells.row<std::uint8_t>(y);
    for (int x = 0; x < width; ++x) dst[x] = (src[x / 64] >> (x % 64)) & 1 ? kAlive : 0;
  }
}

Image unpack_life(const LifeWords& p) {
  Image cells(p.width, p.height, 1, ElemType::U8);
  unpack_life_rows(p.data.data(), std::size_t(p.words), p.width, p.height, cells);
  return cells;
}

void life_step_bits(const LifeWords& in, LifeWords& out, bool torus, const LifeMasks& masks, ThreadPool& pool) {
  const int nw = in.words, h = in.height;
  const int last_bit = (in.width - 1) % 64;
  const std::uint64_t last_mask = last_word_mask(last_bit);
  // Row sums of row y into `sums` (zero rows outside a dead border).
  auto row_sums = [&](long long y, std::vector<RowSum>& sums) {
    sums.resize(std::size_t(nw));
    if (y < 0 || y >= h) {
      if (!torus) {
        std::fill(sums.begin(), sums.end(), RowSum{0, 0});
        return;
      }
      y = (y + h) % h;
    }
    const std::uint64_t* r = in.row(int(y));
    for (int i = 0; i < nw; ++i) {
      const std::uint64_t left = i > 0 ? r[i - 1] : r[nw - 1];
      const std::uint64_t right = i < nw - 1 ? r[i + 1] : r[0];
      sums[std::size_t(i)] = row_sum(r[i], west_bit(left, i == 0, torus, last_bit),
                                     east_bits(right, i == nw - 1, torus, last_bit));
    }
  };
  pool.parallel_for(0, h, [&](long long y0, long long y1) {
    std::vector<RowSum> above, mid, below;
    row_sums(y0 - 1, above);
    row_sums(y0, mid);
    for (long long y = y0; y < y1; ++y) {
      row_sums(y + 1, below);
      const std::uint64_t* c = in.row(int(y));
      std::uint64_t* dst = out.row(int(y));
      for (int i = 0; i < nw; ++i)
        dst[i] = life_word_next(c[i], above[std::size_t(i)], mid[std::size_t(i)], below[std::size_t(i)], masks);
      dst[nw - 1] &= last_mask;
      std::swap(above, mid);
      std::swap(mid, below);
    }
  });
}

long long count_live(const LifeWords& words) {
  long long n = 0;
  for (std::uint64_t w : words.data) n += std::popcount(w);
  return n;
}

Image density_view(const LifeWords& words, const DensityWindow& window, ThreadPool& pool) {
  check_density_window(window);
  Image out(window.width, window.height, 1, ElemType::F32);
  pool.parallel_for(0, window.height, [&](long long py0, long long py1) {
    for (long long py = py0; py < py1; ++py)
      for (int px = 0; px < window.width; ++px) {
        long long x0, x1, y0, y1;
        pixel_cells(window.x0, px, window.cells_per_pixel, words.width, x0, x1);
        pixel_cells(window.y0, int(py), window.cells_per_pixel, words.height, y0, y1);
        long long live = 0;
        for (long long y = y0; y < y1 && x0 < x1; ++y) live += count_row_cells(words.row(int(y)), x0, x1);
        out.row<float>(int(py))[px] = density_of(live, window.cells_per_pixel);
      }
  });
  return out;
}

void paint_life_words(LifeWords& words, const Brush& b) {
  for (int y = std::max(0, b.y - b.radius); y <= std::min(words.height - 1, b.y + b.radius); ++y)
    for (int x = std::max(0, b.x - b.radius); x <= std::min(words.width - 1, b.x + b.radius); ++x)
      if (b.covers(x, y)) {
        const std::uint64_t bit = std::uint64_t(1) << (x % 64);
        std::uint64_t& w = words.row(y)[x / 64];
        w = b.value != 0 ? w | bit : w & ~bit;
      }
}

}  // namespace ks::sim::cpu
