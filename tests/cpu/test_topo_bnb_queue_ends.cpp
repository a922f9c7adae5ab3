// The proof's queue of subtrees taken from both ends (topo/bnb/queue_ends.hpp): the threads feeding GPUs take
// from the front, the CPU threads diving beside them from the back; every position is taken exactly once, also
// when threads take from both ends at once, and an empty queue gives nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "topo/bnb/queue_ends.hpp"

namespace ks::topo {
namespace {

TEST(QueueEnds, TakesFromBothEndsUntilTheyMeet) {
  QueueEnds q;
  q.reset(10);
  std::uint32_t first = 0, last = 0;
  ASSERT_TRUE(q.take_front(3, first, last));
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(last, 3u);
  ASSERT_TRUE(q.take_back(2, first, last));
  EXPECT_EQ(first, 8u);
  EXPECT_EQ(last, 10u);
  EXPECT_EQ(q.left(), 5u);
  ASSERT_TRUE(q.take_back(1, first, last));
  EXPECT_EQ(first, 7u);
  EXPECT_EQ(last, 8u);
  ASSERT_TRUE(q.take_front(64, first, last));  // more than is left: what is left
  EXPECT_EQ(first, 3u);
  EXPECT_EQ(last, 7u);
  EXPECT_EQ(q.left(), 0u);
  EXPECT_FALSE(q.take_front(1, first, last));
  EXPECT_FALSE(q.take_back(1, first, last));
}

TEST(QueueEnds, AnEmptyQueueGivesNothing) {
  QueueEnds q;
  std::uint32_t first = 0, last = 0;
  EXPECT_FALSE(q.take_front(1, first, last));  // never reset: empty
  q.reset(0);
  EXPECT_FALSE(q.take_front(1, first, last));
  EXPECT_FALSE(q.take_back(1, first, last));
  q.reset(1);
  EXPECT_TRUE(q.take_back(5, first, last));
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(last, 1u);
  EXPECT_FALSE(q.take_front(1, first, last));
}

// Two threads take 7 at a time from the front, two 1 at a time from the back: each position once.
TEST(QueueEnds, ThreadsAtBothEndsTakeEveryPositionOnce) {
  constexpr std::uint32_t size = 200003;
  QueueEnds q;
  q.reset(size);
  std::vector<std::atomic<int>> seen(size);
  std::atomic<std::uint64_t> from_front{0}, from_back{0};
  const auto taker = [&](bool front) {
    std::uint32_t first = 0, last = 0;
    while (front ? q.take_front(7, first, last) : q.take_back(1, first, last)) {
      ASSERT_LT(first, last);
      ASSERT_LE(last, size);
      for (std::uint32_t k = first; k < last; ++k) ++seen[k];
      (front ? from_front : from_back) += last - first;
    }
  };
  std::vector<std::thread> threads;
  for (bool front : {true, false, true, false}) threads.emplace_back(taker, front);
  for (auto& t : threads) t.join();
  std::uint32_t wrong = 0;
  for (std::uint32_t k = 0; k < size; ++k) wrong += seen[k].load() != 1;
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(from_front.load() + from_back.load(), size);
}

}  // namespace
}  // namespace ks::topo
