#pragma once
// Life patterns in RLE, the Life community's standard file format (as LifeWiki and Golly write it):
//
//   #N Glider                      '#' lines: name (#N), comments (#C, #c), author (#O), others kept as comments
//   x = 3, y = 3, rule = B3/S23    the header: width, height, optional rule
//   bob$2bo$3o!                    runs: [count]b dead, [count]o alive, [count]$ end of row(s), ! end
//
// Data lines may wrap anywhere between runs and may contain blanks; anything after '!' is ignored. Trailing
// dead cells of a row and trailing empty rows may be left out. Errors are Io errors naming the source, the line
// and what is wrong there.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::sim {

struct LifePattern {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> cells;  // width * height, row-major, 1 alive, 0 dead
  std::optional<std::string> rule;  // the header's rule, canonical ("B3/S23"), when given
  std::string name;                 // #N, or the source name
  std::vector<std::string> comments;

  bool alive(int x, int y) const { return cells[std::size_t(y) * std::size_t(width) + std::size_t(x)] != 0; }
  long long population() const;
};

// The largest pattern accepted (cells in the header's box), so that a damaged header cannot make us allocate
// gigabytes.
inline constexpr long long kMaxPatternCells = 1LL << 28;

// `source` names the text in error messages ("glider.rle", "built-in pattern 'glider'").
LifePattern parse_rle(std::string_view text, const std::string& source);
// Reads a file (Io error when it cannot be read) and parses it.
LifePattern load_rle_file(const std::filesystem::path& path);

}  // namespace ks::sim
