// The Source panel's line diff on small inputs whose answers follow from the definition (a longest common
// subsequence kept, removed lines before added ones between common lines).
#include <gtest/gtest.h>

#include "source/line_diff.hpp"

namespace ks::source {
namespace {

using K = DiffLine::Kind;
using Lines = std::vector<std::string_view>;

TEST(SourceDiff, EqualInputsAreAllSame) {
  EXPECT_EQ(diff_lines({"a", "b"}, {"a", "b"}), (std::vector<DiffLine>{{K::Same, 0, 0}, {K::Same, 1, 1}}));
  EXPECT_TRUE(diff_lines({}, {}).empty());
}

TEST(SourceDiff, OneSideEmpty) {
  EXPECT_EQ(diff_lines({"a", "b"}, {}), (std::vector<DiffLine>{{K::Removed, 0, -1}, {K::Removed, 1, -1}}));
  EXPECT_EQ(diff_lines({}, {"a"}), (std::vector<DiffLine>{{K::Added, -1, 0}}));
}

TEST(SourceDiff, AChangedLineIsRemovedThenAdded) {
  // naive -> tiled: the load line changes, the lines around it stay.
  const Lines before{"int x;", "v = in[i];", "out = v;"};
  const Lines after{"int x;", "v = tile[t];", "out = v;"};
  EXPECT_EQ(
      diff_lines(before, after),
      (std::vector<DiffLine>{{K::Same, 0, 0}, {K::Removed, 1, -1}, {K::Added, -1, 1}, {K::Same, 2, 2}}));
}

TEST(SourceDiff, KeepsALongestCommonSubsequence) {
  // a b c d -> b d e: LCS "b d" (length 2); a and c removed, e added at the end.
  EXPECT_EQ(
      diff_lines({"a", "b", "c", "d"}, {"b", "d", "e"}),
      (std::vector<DiffLine>{
          {K::Removed, 0, -1}, {K::Same, 1, 0}, {K::Removed, 2, -1}, {K::Same, 3, 1}, {K::Added, -1, 2}}));
  // An inserted block in the middle.
  EXPECT_EQ(diff_lines({"a", "z"}, {"a", "b", "c", "z"}),
            (std::vector<DiffLine>{{K::Same, 0, 0}, {K::Added, -1, 1}, {K::Added, -1, 2}, {K::Same, 1, 3}}));
}

}  // namespace
}  // namespace ks::source
