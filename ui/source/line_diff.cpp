#include "source/line_diff.hpp"

#include <algorithm>

namespace ks::source {

std::vector<DiffLine> diff_lines(const std::vector<std::string_view>& before,
                                 const std::vector<std::string_view>& after) {
  const std::size_t n = before.size(), m = after.size();
  // common[i][j]: the length of the longest common subsequence of before[i..] and after[j..].
  std::vector<int> common((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> int& { return common[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      at(i, j) = before[i] == after[j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));

  std::vector<DiffLine> out;
  out.reserve(n + m);
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] == after[j]) {
      out.push_back({DiffLine::Kind::Same, int(i++), int(j++)});
    } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
      out.push_back({DiffLine::Kind::Removed, int(i++), -1});  // removing first keeps removed before added
    } else {
      out.push_back({DiffLine::Kind::Added, -1, int(j++)});
    }
  }
  return out;
}

}  // namespace ks::source
