#pragma once
// Well-known Life patterns, built in as RLE text (these are public-domain facts of the Life literature).
#include <string>
#include <vector>

#include "sim/rle.hpp"

namespace ks::sim {

struct BuiltinPattern {
  std::string name;         // "glider"
  std::string description;  // one line
  std::string rle;          // the whole file
};

const std::vector<BuiltinPattern>& builtin_patterns();
// Usage Error listing the names when there is no such pattern.
LifePattern builtin_pattern(const std::string& name);
std::string builtin_pattern_names();  // "glider, lwss, ..."

}  // namespace ks::sim
