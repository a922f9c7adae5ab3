#include "sim/life_patterns.hpp"

#include "core/error.hpp"

namespace ks::sim {

const std::vector<BuiltinPattern>& builtin_patterns() {
  static const std::vector<BuiltinPattern> patterns = {
      {"glider", "The smallest spaceship: 5 cells, moves one cell diagonally every 4 generations",
       "#N Glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n"},
      {"lwss", "Lightweight spaceship: 9 cells, moves two cells every 4 generations",
       "#N LWSS\nx = 5, y = 4, rule = B3/S23\nbo2bo$o4b$o3bo$4o!\n"},
      {"blinker", "The smallest oscillator: three in a row, period 2", "#N Blinker\nx = 3, y = 1, rule = B3/S23\n3o!\n"},
      {"pulsar", "Period-3 oscillator of 48 cells",
       "#N Pulsar\nx = 13, y = 13, rule = B3/S23\n"
       "2b3o3b3o2b2$o4bobo4bo$o4bobo4bo$o4bobo4bo$2b3o3b3o2b2$2b3o3b3o2b$o4bobo4bo$o4bobo4bo$o4bobo4bo2$\n"
       "2b3o3b3o!\n"},
      {"r-pentomino", "Methuselah of 5 cells that settles after 1103 generations",
       "#N R-pentomino\nx = 3, y = 3, rule = B3/S23\nb2o$2ob$bo!\n"},
      {"acorn", "Methuselah of 7 cells that settles after 5206 generations",
       "#N Acorn\nx = 7, y = 3, rule = B3/S23\nbo5b$3bo3b$2o2b3o!\n"},
      {"diehard", "7 cells that vanish after 130 generations",
       "#N Diehard\nx = 8, y = 3, rule = B3/S23\n6bob$2o6b$bo3b3o!\n"},
      {"gosper-gun", "Gosper glider gun: 36 cells, emits a glider every 30 generations",
       "#N Gosper glider gun\n#O Bill Gosper\nx = 36, y = 9, rule = B3/S23\n"
       "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\n"
       "obo$10bo5bo7bo$11bo3bo$12b2o!\n"},
  };
  return patterns;
}

std::string builtin_pattern_names() {
  std::string names;
  for (const auto& p : builtin_patterns()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

LifePattern builtin_pattern(const std::string& name) {
  for (const auto& p : builtin_patterns())
    if (p.name == name) return parse_rle(p.rle, "built-in pattern '" + name + "'");
  throw_usage("there is no built-in pattern '" + name + "' and no file of that name",
              "built-in patterns: " + builtin_pattern_names() + "; or give an .rle file");
}

}  // namespace ks::sim
