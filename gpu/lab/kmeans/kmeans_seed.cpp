#include "lab/kmeans/kmeans_seed.hpp"

#include <algorithm>
#include <bit>
#include <random>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "lab/kmeans/kmeans_math.hpp"

namespace ks::lab {

namespace {

std::uint32_t colour_distance2(std::uint32_t a, std::uint32_t b) {
  std::uint32_t s = 0;
  for (int c = 0; c < kColourChannels; ++c) {
    const int d = colour_channel(a, c) - colour_channel(b, c);
    s += std::uint32_t(d * d);
  }
  return s;
}

std::uint64_t uniform_below(std::mt19937_64& g, std::uint64_t bound) {
  const std::uint64_t mask = std::bit_ceil(bound) - 1;  // bound >= 1
  std::uint64_t x;
  do x = g() & mask;
  while (x >= bound);
  return x;
}

// D^2 of every distinct colour to its nearest chosen centre, with the weighted totals of fixed chunks of
// colours. The chunks do not depend on the thread count, so neither does the colour a draw lands on.
class Distances {
 public:
  static constexpr std::size_t kChunk = std::size_t(1) << 14;

  Distances(const ColourCounts& pal, ThreadPool& pool)
      : pal_(pal),
        pool_(pool),
        d2_(pal.colours.size(), ~0u),
        chunk_totals_((d2_.size() + kChunk - 1) / kChunk) {}

  // Takes `centre` into account: d2 = min(d2, |colour - centre|^2), and the totals.
  void add_centre(std::uint32_t centre) {
    pool_.parallel_for(0, (long long)chunk_totals_.size(), [&](long long c0, long long c1) {
      for (long long c = c0; c < c1; ++c) {
        std::uint64_t total = 0;
        const std::size_t end = std::min(d2_.size(), std::size_t(c + 1) * kChunk);
        for (std::size_t i = std::size_t(c) * kChunk; i < end; ++i) {
          d2_[i] = std::min(d2_[i], colour_distance2(pal_.colours[i], centre));
          total += std::uint64_t(d2_[i]) * pal_.weights[i];
        }
        chunk_totals_[std::size_t(c)] = total;
      }
    });
  }

  std::uint64_t total() const {
    std::uint64_t t = 0;
    for (std::uint64_t c : chunk_totals_) t += c;
    return t;
  }

  // The colour where the running sum of weight * D^2 first exceeds r (r < total()).
  std::size_t find(std::uint64_t r) const {
    std::size_t c = 0;
    while (r >= chunk_totals_[c]) r -= chunk_totals_[c++];
    for (std::size_t i = c * kChunk;; ++i) {
      const std::uint64_t w = std::uint64_t(d2_[i]) * pal_.weights[i];
      if (r < w) return i;
      r -= w;
    }
  }

 private:
  const ColourCounts& pal_;
  ThreadPool& pool_;
  std::vector<std::uint32_t> d2_;
  std::vector<std::uint64_t> chunk_totals_;
};

// The colour of the pixel at position r when the pixels are ordered by colour.
std::size_t find_by_weight(const ColourCounts& pal, std::uint64_t r) {
  std::size_t i = 0;
  while (r >= pal.weights[i]) r -= pal.weights[i++];
  return i;
}

void put_centre(std::vector<float>& centres, int j, std::uint32_t colour) {
  for (int c = 0; c < kColourChannels; ++c)
    centres[std::size_t(j) * kColourChannels + c] = float(colour_channel(colour, c));
}

}  // namespace

ColourCounts count_colours(std::span<const std::uint32_t> pixels, bool dense) {
  ColourCounts cc;
  if (dense) {
    std::vector<std::uint32_t> counts(std::size_t(1) << 24, 0);  // pixel counts fit: at most 2^28
    for (std::uint32_t p : pixels) ++counts[p & 0xffffffu];
    for (std::uint32_t c = 0; c < counts.size(); ++c)
      if (counts[c]) {
        cc.colours.push_back(c);
        cc.weights.push_back(counts[c]);
      }
    return cc;
  }
  std::vector<std::uint32_t> sorted(pixels.size());
  for (std::size_t i = 0; i < pixels.size(); ++i) sorted[i] = pixels[i] & 0xffffffu;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i == 0 || sorted[i] != sorted[i - 1]) {
      cc.colours.push_back(sorted[i]);
      cc.weights.push_back(0);
    }
    ++cc.weights.back();
  }
  return cc;
}

ColourCounts count_colours(std::span<const std::uint32_t> pixels) {
  return count_colours(pixels, pixels.size() >= (std::size_t(1) << 20));
}

std::vector<float> kmeanspp_centres(std::span<const std::uint32_t> pixels, int k, std::uint64_t seed,
                                    ThreadPool& pool) {
  if (pixels.empty() || k < 1) throw Error(ErrorKind::Internal, "kmeanspp_centres: no pixels or no clusters");
  const ColourCounts pal = count_colours(pixels);
  std::mt19937_64 rng(seed);
  std::vector<float> centres(std::size_t(k) * kColourChannels);
  const std::uint32_t first = pal.colours[find_by_weight(pal, uniform_below(rng, pixels.size()))];
  put_centre(centres, 0, first);
  Distances dist(pal, pool);
  dist.add_centre(first);
  for (int j = 1; j < k; ++j) {
    const std::uint64_t total = dist.total();
    if (total == 0) {  // every colour is a centre already
      put_centre(centres, j, first);
      continue;
    }
    const std::uint32_t next = pal.colours[dist.find(uniform_below(rng, total))];
    put_centre(centres, j, next);
    dist.add_centre(next);
  }
  return centres;
}

}  // namespace ks::lab
