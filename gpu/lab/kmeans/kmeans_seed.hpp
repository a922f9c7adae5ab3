#pragma once
// The k-means++ start (Arthur & Vassilvitskii 2007): the first centre a pixel drawn uniformly, each next one
// a pixel drawn with probability proportional to its squared distance D^2 to the nearest centre chosen so
// far.
//
// It runs over the image's distinct colours weighted by their pixel counts (the same distribution, and at
// most 2^24 colours however large the image), in increasing colour order, with integer D^2 and 64-bit totals
// and std::mt19937_64 (whose output the standard fixes): the centres depend only on the pixels and the seed,
// not on the thread count or the backend.
#include <cstdint>
#include <span>
#include <vector>

namespace ks {
class ThreadPool;
}

namespace ks::lab {

// k centres as k * 3 floats (r, g, b), each an actual pixel colour. When the image has fewer distinct colours
// than k, every colour is a centre and the remaining centres repeat the first (their clusters stay empty: a
// pixel goes to the lowest-numbered of equally near centroids).
// The image's distinct colours (24-bit words, increasing) and how many pixels have each. Counted in a table
// of all 2^24 colours for large images, by sorting a copy for small ones (the table costs 64 MB to clear and
// scan); `dense` forces the table (tests compare the two).
struct ColourCounts {
  std::vector<std::uint32_t> colours;
  std::vector<std::uint32_t> weights;
};
ColourCounts count_colours(std::span<const std::uint32_t> pixels, bool dense);
ColourCounts count_colours(std::span<const std::uint32_t> pixels);

std::vector<float> kmeanspp_centres(std::span<const std::uint32_t> pixels, int k, std::uint64_t seed,
                                    ThreadPool& pool);

}  // namespace ks::lab
