// The tabu step's move choice: pairs carried as packed positions order as their numbers in the delta matrix
// do (so the chosen move is the one the pair number chose), and the 64-bit packing the CUDA block reduces
// keeps every choice and its order (MoveChoice::before), at the ends of every field: the least and greatest
// deltas, the first and last positions the packing holds, every rank.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <random>
#include <vector>

#include "topo/search/packed_choice.hpp"
#include "topo/swap_delta.hpp"

namespace ks::topo {
namespace {

TEST(SearchPackedChoice, PackedPairsOrderAsTheirNumbers) {
  for (int n : {2, 3, 17, 300}) {
    std::uint32_t previous = 0;
    int number = 0;
    for (int r = 0; r < n; ++r)
      for (int s = r + 1; s < n; ++s, ++number) {
        ASSERT_EQ(pair_index(r, s, n), number) << "n " << n;
        if (number > 0) {
          ASSERT_LT(previous, pack_pair(r, s)) << "n " << n << " pair " << r << ", " << s;
        }
        previous = pack_pair(r, s);
      }
  }
}

std::vector<MoveChoice<std::int32_t>> choices() {
  const int last = kMaxPackedChoiceNodes - 1;
  const std::int32_t deltas[] = {INT_MIN, INT_MIN + 1, -65537, -1, 0, 1, 3, 65536, INT_MAX - 1, INT_MAX};
  const std::pair<int, int> pairs[] = {{0, 1}, {0, 2}, {1, 2}, {0, last}, {last - 1, last}, {4095, 4096}};
  std::vector<MoveChoice<std::int32_t>> all;
  for (int rank = 0; rank < 3; ++rank)
    for (std::int32_t d : deltas)
      for (auto [r, s] : pairs) {
        MoveChoice<std::int32_t> c;
        c.rank = rank;
        c.delta = d;
        c.pair = pack_pair(r, s);
        all.push_back(c);
      }
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::int32_t> any_delta(INT_MIN, INT_MAX);
  std::uniform_int_distribution<int> position(0, last), rank(0, 2);
  for (int k = 0; k < 2000; ++k) {
    int r = position(rng), s = position(rng);
    if (r == s) continue;
    if (r > s) std::swap(r, s);
    MoveChoice<std::int32_t> c;
    c.rank = rank(rng);
    c.delta = k % 3 == 0 ? all[std::size_t(k) % all.size()].delta : any_delta(rng);  // ties in delta too
    c.pair = pack_pair(r, s);
    all.push_back(c);
  }
  return all;
}

TEST(SearchPackedChoice, PackingKeepsEveryChoice) {
  for (const auto& c : choices()) {
    const MoveChoice<std::int32_t> back = PackedChoice::pack(c).unpack();
    ASSERT_EQ(back.rank, c.rank);
    ASSERT_EQ(back.delta, c.delta);
    ASSERT_EQ(back.pair, c.pair);
  }
}

TEST(SearchPackedChoice, PackedOrderIsTheChoicesOrder) {
  const auto all = choices();
  for (const auto& a : all)
    for (std::size_t k = 0; k < all.size(); k += 7) {
      const auto& b = all[k];
      ASSERT_EQ(PackedChoice::pack(a).before(PackedChoice::pack(b)), a.before(b))
          << "rank " << a.rank << " delta " << a.delta << " pair " << a.pair << " against rank " << b.rank
          << " delta " << b.delta << " pair " << b.pair;
    }
  // "None yet" (rank 3) comes after every real choice, and the empty key after everything.
  const MoveChoice<std::int32_t> none{};
  for (const auto& a : all) {
    ASSERT_TRUE(PackedChoice::pack(a).before(PackedChoice::pack(none)));
    ASSERT_TRUE(PackedChoice::pack(a).before(PackedChoice{}));
  }
}

}  // namespace
}  // namespace ks::topo
