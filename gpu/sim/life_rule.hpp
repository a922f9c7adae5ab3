#pragma once
// Outer-totalistic Life-like rules in B/S notation: "B3/S23" is Conway's Life (a dead cell with 3 live
// neighbours is born, a live cell with 2 or 3 survives). Also read: the older S/B form "23/3" (survival first,
// as some RLE files write it), "B3S23" without the slash, lower case, and a few names (conway, highlife, seeds,
// daynight, ...).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/sim_math.hpp"

namespace ks::sim {

struct LifeRule {
  std::uint16_t birth = 0;    // bit n: a dead cell with n live neighbours is born (n = 0..8)
  std::uint16_t survive = 0;  // bit n: a live cell with n live neighbours survives
  bool operator==(const LifeRule&) const = default;
};

// Throws a usage Error that says what is wrong (e.g. "9 is not a neighbour count") and shows the notation.
LifeRule parse_life_rule(const std::string& text);
// The canonical form: "B36/S23", digits ascending.
std::string to_string(const LifeRule& rule);

// Named rules: {name, canonical rule}, e.g. {"highlife", "B36/S23"}.
const std::vector<std::pair<std::string, std::string>>& named_life_rules();

// The rule as the kernels apply it (see sim_math.hpp).
LifeTable life_table(const LifeRule& rule);
LifeMasks life_masks(const LifeRule& rule);

}  // namespace ks::sim
