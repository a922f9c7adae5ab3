// ThreadPool::parallel_for: chunks cover the range exactly once, work spreads, errors reach the caller.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/thread_pool.hpp"

namespace ks {
namespace {

using Chunks = std::vector<std::pair<long long, long long>>;

Chunks chunks_of(ThreadPool& pool, long long begin, long long end) {
  std::mutex m;
  Chunks chunks;
  pool.parallel_for(begin, end, [&](long long b, long long e) {
    std::lock_guard lock(m);
    chunks.emplace_back(b, e);
  });
  std::sort(chunks.begin(), chunks.end());
  return chunks;
}

// Sorted chunks must be non-empty, adjacent, and span exactly [begin, end).
void expect_partition(const Chunks& chunks, long long begin, long long end) {
  ASSERT_FALSE(chunks.empty());
  EXPECT_EQ(chunks.front().first, begin);
  EXPECT_EQ(chunks.back().second, end);
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_LT(chunks[i].first, chunks[i].second) << "chunk " << i << " is empty";
    if (i > 0) {
      EXPECT_EQ(chunks[i - 1].second, chunks[i].first) << "gap or overlap before chunk " << i;
    }
  }
}

TEST(ThreadPool, SizeIsWhatWasAsked) {
  EXPECT_EQ(ThreadPool(3).size(), 3u);
  EXPECT_GE(ThreadPool(0).size(), 1u);
}

TEST(ThreadPool, ChunksPartitionTheRange) {
  ThreadPool pool(4);
  const Chunks chunks = chunks_of(pool, 10, 1010);
  expect_partition(chunks, 10, 1010);
  // About 4 chunks per worker, of near-equal size: 1000 / 16 = 62.5.
  EXPECT_EQ(chunks.size(), 16u);
  for (auto [b, e] : chunks) EXPECT_TRUE(e - b == 62 || e - b == 63) << b << ".." << e;
}

TEST(ThreadPool, FewerItemsThanChunksGivesOneItemEach) {
  ThreadPool pool(4);
  const Chunks chunks = chunks_of(pool, -3, 2);
  expect_partition(chunks, -3, 2);
  EXPECT_EQ(chunks.size(), 5u);
}

TEST(ThreadPool, EmptyAndReversedRangesCallNothing) {
  ThreadPool pool(2);
  std::atomic<int> calls{0};
  pool.parallel_for(5, 5, [&](long long, long long) { ++calls; });
  pool.parallel_for(7, 3, [&](long long, long long) { ++calls; });
  EXPECT_EQ(calls.load(), 0);
}

TEST(ThreadPool, SingleWorkerRunsTheWholeRange) {
  ThreadPool pool(1);
  const Chunks chunks = chunks_of(pool, 0, 100);
  expect_partition(chunks, 0, 100);
}

TEST(ThreadPool, HugeRangeDoesNotOverflow) {
  ThreadPool pool(3);
  // end - begin exceeds LLONG_MAX; only the chunk bounds are checked, no work per item.
  expect_partition(chunks_of(pool, LLONG_MIN, LLONG_MAX), LLONG_MIN, LLONG_MAX);
}

TEST(ThreadPool, SumMatchesClosedForm) {
  ThreadPool pool(4);
  const long long n = 1'000'000;
  std::atomic<long long> sum{0};
  pool.parallel_for(1, n + 1, [&](long long b, long long e) {
    long long local = 0;
    for (long long i = b; i < e; ++i) local += i;
    sum += local;
  });
  EXPECT_EQ(sum.load(), n * (n + 1) / 2);
}

TEST(ThreadPool, WritesEveryElementOnce) {
  ThreadPool pool(3);
  std::vector<int> hits(10'007, 0);
  for (int round = 0; round < 20; ++round) {
    pool.parallel_for(0, (long long)hits.size(), [&](long long b, long long e) {
      for (long long i = b; i < e; ++i) ++hits[std::size_t(i)];
    });
  }
  EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 20; }));
}

TEST(ThreadPool, UsesSeveralThreads) {
  ThreadPool pool(4);
  std::mutex m;
  std::set<std::thread::id> ids;
  // Each chunk waits a little so that one thread cannot take them all before the others wake.
  pool.parallel_for(0, 16, [&](long long, long long) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard lock(m);
    ids.insert(std::this_thread::get_id());
  });
  EXPECT_GE(ids.size(), 2u);
}

TEST(ThreadPool, ExceptionReachesTheCallerAndPoolStaysUsable) {
  ThreadPool pool(4);
  EXPECT_THROW(pool.parallel_for(0, 1000,
                                 [](long long b, long long e) {
                                   if (b <= 500 && 500 < e) throw std::runtime_error("chunk with 500 failed");
                                 }),
               std::runtime_error);
  try {
    pool.parallel_for(0, 100, [](long long, long long) { throw std::out_of_range("every chunk fails"); });
    FAIL() << "no exception";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "every chunk fails");
  }
  std::atomic<long long> count{0};
  pool.parallel_for(0, 100, [&](long long b, long long e) { count += e - b; });
  EXPECT_EQ(count.load(), 100);
}

TEST(ThreadPool, ExceptionWithSingleWorker) {
  ThreadPool pool(1);
  EXPECT_THROW(pool.parallel_for(0, 10, [](long long, long long) { throw std::logic_error("x"); }),
               std::logic_error);
}

TEST(ThreadPool, NestedCallsFromWorkersDoNotDeadlock) {
  ThreadPool pool(2);
  std::atomic<long long> total{0};
  pool.parallel_for(0, 8, [&](long long b, long long e) {
    for (long long i = b; i < e; ++i) {
      pool.parallel_for(0, 100, [&](long long ib, long long ie) { total += ie - ib; });
    }
  });
  EXPECT_EQ(total.load(), 800);
}

TEST(ThreadPool, ConcurrentCallersGetTheirOwnResults) {
  ThreadPool pool(3);
  std::atomic<long long> a{0}, b{0};
  std::thread other([&] {
    for (int r = 0; r < 50; ++r) pool.parallel_for(0, 1000, [&](long long x, long long y) { a += y - x; });
  });
  for (int r = 0; r < 50; ++r) pool.parallel_for(0, 777, [&](long long x, long long y) { b += y - x; });
  other.join();
  EXPECT_EQ(a.load(), 50 * 1000);
  EXPECT_EQ(b.load(), 50 * 777);
}

}  // namespace
}  // namespace ks
