// The lab's sort on the CPU: the key distributions are what they say, both CPU variants sort (sorted order
// and the input's multiset of keys, pairs kept together, equal keys ordered by value) on n = 1, 31, 1025,
// 2^20 + 3, and sizes out of range are usage errors.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/error.hpp"
#include "lab/sort/sort_cpu.hpp"
#include "lab/sort/sort_data.hpp"
#include "support/sort_checks.hpp"

namespace ks::lab {
namespace {

using test::Keys;

const std::size_t kSizes[] = {1, 31, 1025, (std::size_t(1) << 20) + 3};
const KeyDistribution kDistributions[] = {KeyDistribution::Uniform, KeyDistribution::FewDistinct,
                                          KeyDistribution::Sorted, KeyDistribution::Reversed};

bool parallel_available() {
  return cpu_parallel_sort_unavailable_reason().empty();
}

TEST(LabSortData, DistributionsHaveTheirShape) {
  const std::size_t n = 100003;
  const Keys sorted = make_keys(n, KeyDistribution::Sorted, 7);
  const Keys reversed = make_keys(n, KeyDistribution::Reversed, 7);
  const Keys few = make_keys(n, KeyDistribution::FewDistinct, 7);
  const Keys uniform = make_keys(n, KeyDistribution::Uniform, 7);
  for (std::size_t i = 1; i < n; ++i) {
    ASSERT_LE(sorted[i - 1], sorted[i]) << i;
    ASSERT_GE(reversed[i - 1], reversed[i]) << i;
  }
  EXPECT_EQ(reversed.front(), sorted.back());  // the same keys, mirrored
  EXPECT_LE(std::set<std::uint32_t>(few.begin(), few.end()).size(), 16u);
  EXPECT_GE(std::set<std::uint32_t>(few.begin(), few.end()).size(), 8u);
  // Uniform keys: 100003 draws from 2^32 values collide about once; the top bit is set about half the time.
  EXPECT_GT(std::set<std::uint32_t>(uniform.begin(), uniform.end()).size(), n - 20);
  const auto high = std::count_if(uniform.begin(), uniform.end(), [](std::uint32_t k) { return k >> 31; });
  EXPECT_NEAR(double(high) / double(n), 0.5, 0.01);
  // Sorted keys span the u32 range.
  EXPECT_LT(sorted.front(), 1u << 20);
  EXPECT_GT(sorted.back(), 0xfff00000u);
}

TEST(LabSortData, SeedDecides) {
  EXPECT_EQ(make_keys(1025, KeyDistribution::Uniform, 3), make_keys(1025, KeyDistribution::Uniform, 3));
  EXPECT_NE(make_keys(1025, KeyDistribution::Uniform, 3), make_keys(1025, KeyDistribution::Uniform, 4));
  EXPECT_NE(make_keys(1025, KeyDistribution::FewDistinct, 3),
            make_keys(1025, KeyDistribution::FewDistinct, 4));
}

TEST(LabSortData, NamesRoundTripAndUnknownIsUsage) {
  for (KeyDistribution d : kDistributions) EXPECT_EQ(key_distribution_from_string(to_string(d)), d);
  try {
    key_distribution_from_string("gaussian");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("uniform, few, sorted or reversed"), std::string::npos);
  }
}

TEST(LabSortData, SizeOutOfRangeIsUsage) {
  for (std::size_t n : {std::size_t(0), kMaxSortElements + 1}) {
    try {
      check_sort_size(n);
      FAIL() << n;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_NE(e.full_message().find("268435456"), std::string::npos) << e.full_message();
    }
  }
  EXPECT_NO_THROW(check_sort_size(kMaxSortElements));
  EXPECT_NO_THROW(check_sort_size(1));
}

TEST(LabSortCpu, SmallExampleByHand) {
  Keys keys{3, 1, 2, 1, 0xffffffffu, 0}, values{0, 1, 2, 3, 4, 5};
  sort_cpu(keys, values, false);
  EXPECT_EQ(keys, (Keys{0, 1, 1, 2, 3, 0xffffffffu}));
  EXPECT_EQ(values, (Keys{5, 1, 3, 2, 0, 4}));
  // Equal keys come out by value, not by input position.
  Keys k2{7, 7, 7}, v2{9, 2, 5};
  sort_cpu(k2, v2, false);
  EXPECT_EQ(v2, (Keys{2, 5, 9}));
}

class LabSortCpuSizes : public ::testing::TestWithParam<std::tuple<std::size_t, KeyDistribution, bool>> {};

TEST_P(LabSortCpuSizes, SortsKeysAndPairs) {
  const auto [n, dist, parallel] = GetParam();
  if (parallel && !parallel_available()) GTEST_SKIP() << cpu_parallel_sort_unavailable_reason();
  const Keys input = make_keys(n, dist, 11);
  Keys keys = input;
  sort_cpu(keys, {}, parallel);
  EXPECT_TRUE(test::is_sorted_permutation(input, keys));

  Keys pair_keys = input, values = make_positions(n);
  sort_cpu(pair_keys, values, parallel);
  EXPECT_EQ(pair_keys, keys);
  EXPECT_TRUE(test::pairs_are_input_pairs(input, pair_keys, values));
  EXPECT_EQ(values, test::by_key_then_value(input, make_positions(n)));
}

INSTANTIATE_TEST_SUITE_P(All, LabSortCpuSizes,
                         ::testing::Combine(::testing::ValuesIn(kSizes), ::testing::ValuesIn(kDistributions),
                                            ::testing::Bool()));

TEST(LabSortCpu, ParallelEqualsSequentialOrSaysWhyNot) {
  const Keys input = make_keys(300007, KeyDistribution::FewDistinct, 5);
  Keys a = input, va(input.size()), b = input, vb;
  for (std::size_t i = 0; i < va.size(); ++i) va[i] = std::uint32_t(input.size() - i);  // not the positions
  vb = va;
  sort_cpu(a, va, false);
  if (!parallel_available()) {
    try {
      sort_cpu(b, vb, true);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_NE(e.full_message().find("libtbb-dev"), std::string::npos);
    }
    return;
  }
  sort_cpu(b, vb, true);
  EXPECT_EQ(a, b);
  EXPECT_EQ(va, vb);
}

}  // namespace
}  // namespace ks::lab
