#pragma once
// The rows of a CPU stencil, split over the pool in chunks of at least rows_per_chunk rows: an image too small to
// be worth waking other threads for runs on the calling thread (an 8×8 image on 2 threads took 5× its one-thread
// time waking the other; docs/PERF.md "Python: ks.run per call"). Large images split as parallel_for splits rows.
#include <algorithm>
#include <cstddef>

#include "core/thread_pool.hpp"

namespace ks::cpu {

inline constexpr std::size_t kMinChunkElements = 16384;

inline long long rows_per_chunk(std::size_t row_elements) {
  return static_cast<long long>(std::max<std::size_t>(1, kMinChunkElements / std::max<std::size_t>(row_elements, 1)));
}

// body(y0, y1) over disjoint row ranges covering [0, height).
template <class Body>
void for_row_chunks(ThreadPool& pool, long long height, std::size_t row_elements, const Body& body) {
  const long long per = rows_per_chunk(row_elements);
  const long long groups = (height + per - 1) / per;
  if (groups <= 1) {
    body(0LL, height);
    return;
  }
  pool.parallel_for(0, groups, [&](long long g0, long long g1) { body(g0 * per, std::min(height, g1 * per)); });
}

}  // namespace ks::cpu
