// The subtrees a rank's threads take while rank 0's hand-outs keep coming (topo/bnb/subtree_feed.hpp): taken in
// the order they came (diving threads beside GPUs from a hand-out's end), a take never spanning two hand-outs (a
// GPU's group is one hand-out's, and so are its nodes), a thread waiting for more wakes for the next hand-out, and closing lets it return once nothing is left.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "topo/bnb/subtree_feed.hpp"

namespace ks::topo {
namespace {

using Subtrees = std::vector<std::uint32_t>;

TEST(SubtreeFeed, TakesInOrderWithinOneHandOutAtATime) {
  SubtreeFeed feed;
  EXPECT_EQ(feed.append({7, 3, 9}), 0u);
  EXPECT_EQ(feed.append({4, 1}), 1u);
  Subtrees got;
  std::size_t handout = 99;
  ASSERT_TRUE(feed.take(2, got, handout));
  EXPECT_EQ(got, (Subtrees{7, 3}));
  EXPECT_EQ(handout, 0u);
  ASSERT_TRUE(feed.take(64, got, handout));  // the rest of the first, not the second's
  EXPECT_EQ(got, (Subtrees{9}));
  EXPECT_EQ(handout, 0u);
  ASSERT_TRUE(feed.take(64, got, handout));
  EXPECT_EQ(got, (Subtrees{4, 1}));
  EXPECT_EQ(handout, 1u);
  feed.finished(1, 40);
  feed.finished(1, 2);
  feed.finished(0, 5);
  EXPECT_EQ(feed.nodes(0), 5u);
  EXPECT_EQ(feed.nodes(1), 42u);
  EXPECT_EQ(feed.subtrees(1), (Subtrees{4, 1}));
  feed.close();
  EXPECT_FALSE(feed.take(1, got, handout));
}

// Diving threads beside GPUs take from the end of the oldest hand-out (its highest bounds), the feeding threads
// from its front; they meet inside it, and then both go on to the next hand-out.
TEST(SubtreeFeed, TheLastOfAHandOutGoesToTakersFromTheBack) {
  SubtreeFeed feed;
  feed.append({7, 3, 9, 5, 8});
  feed.append({4, 1});
  Subtrees got;
  std::size_t handout = 99;
  ASSERT_TRUE(feed.take_last(2, got, handout));
  EXPECT_EQ(got, (Subtrees{5, 8}));
  EXPECT_EQ(handout, 0u);
  ASSERT_TRUE(feed.take(2, got, handout));
  EXPECT_EQ(got, (Subtrees{7, 3}));
  ASSERT_TRUE(feed.take(2, got, handout));  // only 9 is left between the two ends
  EXPECT_EQ(got, (Subtrees{9}));
  EXPECT_EQ(handout, 0u);
  ASSERT_TRUE(feed.take_last(1, got, handout));
  EXPECT_EQ(got, (Subtrees{1}));
  EXPECT_EQ(handout, 1u);
  ASSERT_TRUE(feed.take_last(5, got, handout));
  EXPECT_EQ(got, (Subtrees{4}));
  feed.close();
  EXPECT_FALSE(feed.take_last(1, got, handout));
  EXPECT_FALSE(feed.take(1, got, handout));
}

TEST(SubtreeFeed, AWaitingThreadTakesTheNextHandOutAndReturnsOnceClosed) {
  SubtreeFeed feed;
  std::atomic<int> taken{0};
  std::atomic<bool> returned{false};
  std::thread worker([&] {
    Subtrees got;
    std::size_t handout = 0;
    while (feed.take(1, got, handout)) taken += int(got.size());
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(taken.load(), 0);
  EXPECT_FALSE(returned.load()) << "an empty open feed let its thread go";
  feed.append({1, 2, 3});
  for (int k = 0; k < 500 && taken.load() < 3; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_EQ(taken.load(), 3);
  EXPECT_FALSE(returned.load());
  feed.close();
  worker.join();
  EXPECT_TRUE(returned.load());
}

TEST(SubtreeFeed, WhatWasAppendedBeforeCloseIsStillTaken) {
  SubtreeFeed feed;
  feed.append({5});
  feed.append({});  // an empty hand-out is skipped
  feed.append({6, 8});
  feed.close();
  Subtrees all, got;
  std::size_t handout = 0;
  while (feed.take(1, got, handout)) all.insert(all.end(), got.begin(), got.end());
  EXPECT_EQ(all, (Subtrees{5, 6, 8}));
}

}  // namespace
}  // namespace ks::topo
