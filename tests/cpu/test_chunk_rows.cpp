// The rows of a CPU stencil over the pool (stencil/cpu/chunk_rows.hpp): a small image stays on the calling thread in
// one piece; a larger one is covered once, in chunks of at least rows_per_chunk rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "stencil/cpu/chunk_rows.hpp"

namespace ks::cpu {
namespace {

struct Seen {
  std::mutex mutex;
  std::vector<std::pair<long long, long long>> chunks;
  std::set<std::thread::id> threads;
};

void run(ThreadPool& pool, long long height, std::size_t row_elements, Seen& seen) {
  for_row_chunks(pool, height, row_elements, [&](long long y0, long long y1) {
    std::lock_guard lock(seen.mutex);
    seen.chunks.emplace_back(y0, y1);
    seen.threads.insert(std::this_thread::get_id());
  });
  std::sort(seen.chunks.begin(), seen.chunks.end());
}

TEST(ChunkRows, ATinyImageRunsInOnePieceOnTheCallingThread) {
  ThreadPool pool(4);
  Seen seen;
  run(pool, 8, 8, seen);  // 8×8 grey
  ASSERT_EQ(seen.chunks.size(), 1u);
  EXPECT_EQ(seen.chunks[0], std::make_pair(0LL, 8LL));
  EXPECT_EQ(seen.threads, std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST(ChunkRows, ALargerImageIsCoveredOnceInChunksOfTheMinimum) {
  ThreadPool pool(4);
  Seen seen;
  const std::size_t row_elements = 4 * 301;  // 301 RGBA pixels a row: 13 rows per chunk at least
  const long long per = rows_per_chunk(row_elements);
  ASSERT_EQ(per, 13);
  run(pool, 997, row_elements, seen);
  ASSERT_GT(seen.chunks.size(), 1u);
  EXPECT_EQ(seen.chunks.front().first, 0);
  EXPECT_EQ(seen.chunks.back().second, 997);
  for (std::size_t i = 0; i < seen.chunks.size(); ++i) {
    if (i > 0) {
      EXPECT_EQ(seen.chunks[i - 1].second, seen.chunks[i].first) << "gap or overlap before chunk " << i;
    }
    if (i + 1 < seen.chunks.size()) {
      EXPECT_GE(seen.chunks[i].second - seen.chunks[i].first, per);
    }
  }
}

TEST(ChunkRows, WideRowsSplitRowByRowAsBefore) {
  ThreadPool pool(2);
  Seen seen;
  run(pool, 5, 100000, seen);
  EXPECT_EQ(rows_per_chunk(100000), 1);
  EXPECT_EQ(seen.chunks.size(), 5u);  // fewer rows than 4 chunks per worker: one row each
}

}  // namespace
}  // namespace ks::cpu
