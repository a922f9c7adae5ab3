#pragma once
// A line diff by longest common subsequence: which lines of `before` are gone and which of `after` are new.
// Enough for two variants of one kernel (a few hundred lines each); quadratic in time and memory.
#include <cstddef>
#include <string_view>
#include <vector>

namespace ks::source {

struct DiffLine {
  enum class Kind { Same, Removed, Added };
  Kind kind = Kind::Same;
  int before = -1;  // line index in `before` (Same, Removed), else -1
  int after = -1;   // line index in `after` (Same, Added), else -1
  bool operator==(const DiffLine&) const = default;
};

// Every line of both inputs once, in reading order; where both have lines between common ones, the removed
// lines come before the added ones (as `diff -u` shows them).
std::vector<DiffLine> diff_lines(const std::vector<std::string_view>& before,
                                 const std::vector<std::string_view>& after);

}  // namespace ks::source
