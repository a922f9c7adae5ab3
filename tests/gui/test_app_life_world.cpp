// A Life world past 2^30 cells in the real window under Xvfb (CPU backend, cpu_bitpacked): it opens, shown through
// the density view of the window on screen; a click at the fitted, zoomed-out view paints the cells of the brush
// in world cells; 1:1 and the viewport's zoom reach single cells, where clicks paint one cell each and a step
// turns the three painted in a row into a column (a blinker), read back from the frame shown.
#include <set>
#include <sstream>

#include "gui_app_fixture.hpp"

namespace ks::test {
namespace {

using Cell = std::pair<int, int>;

// "cells 8: 16384,16384=255 ..." -> the cells listed (all of them: the window holds fewer than the limit).
std::set<Cell> cells_of(const std::string& line) {
  std::istringstream in(line.substr(line.find(':') + 1));
  std::set<Cell> cells;
  for (std::string item; in >> item;) {
    const std::size_t comma = item.find(','), equals = item.find('=');
    EXPECT_EQ(item.substr(equals + 1), "255") << "a single cell shown at one cell per pixel: " << item;
    cells.insert({std::stoi(item.substr(0, comma)), std::stoi(item.substr(comma + 1, equals - comma - 1))});
  }
  return cells;
}

// "... window=X,Y+WxH@C": the cells per pixel C of the window shown.
int cells_per_pixel_of(const std::string& line) {
  const std::size_t at = line.find(" window=");
  if (at == std::string::npos) throw std::runtime_error("no density window in: " + line);
  return std::stoi(line.substr(line.find('@', at) + 1));
}

long long population_of(const std::string& line) {
  const std::size_t at = line.find(" population=");
  if (at == std::string::npos) throw std::runtime_error("no population in: " + line);
  return std::stoll(line.substr(at + 12));
}

TEST_F(GuiApp, ALifeWorldPast2To30CellsIsShownZoomedOutPaintedAndSteppedToSingleCells) {
  const AppRun run = run_script(
      "kernel life\n"
      "sim pause\n"
      "pattern glider\n"        // at the centre; the rest is dead (a random fill of 10^9 cells takes many seconds)
      "variant cpu_bitpacked\n"
      "sim grid 32769x32768\n"  // 2^30 + 32768 cells
      "sim print\n"             // [0] fitted: many cells a pixel
      "sim brush on 2 1\n"
      "click 300 200\n"         // zoomed out: a disc of radius 2, 13 cells
      "sim print\n"             // [1]
      "menu View/1:1\n"
      "zoom 8\n"                // 8 screen pixels a cell, around the centre of the free area: the glider
      "print-status\n"
      "sim print\n"             // [2] one cell a pixel
      "sim cells\n"             // [0] the glider
      "sim brush on 0 1\n"
      "click 100 300\n"
      "click 108 300\n"
      "click 116 300\n"         // three cells in a row, 25 or more cells left of the glider
      "sim cells\n"             // [1]
      "sim step 1\n"
      "sim print\n"             // [3]
      "sim cells\n"             // [2]
      "quit\n",
      {"--backend", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.describe();
  const auto sims = lines_starting(run.out, "sim kernel=");
  const auto cells = lines_starting(run.out, "cells ");
  ASSERT_EQ(sims.size(), 4u) << run.out;
  ASSERT_EQ(cells.size(), 3u) << run.out;
  EXPECT_EQ(sims[0].find("error="), std::string::npos) << sims[0];
  EXPECT_NE(sims[0].find("world=32769x32768"), std::string::npos) << sims[0];
  EXPECT_NE(cells_per_pixel_of(sims[0]), 1) << "fitted, a pixel is many cells: " << sims[0];
  EXPECT_EQ(population_of(sims[0]), 5);
  EXPECT_EQ(population_of(sims[1]), 5 + 13) << "the brush paints world cells at any zoom: " << sims[1];
  EXPECT_EQ(cells_per_pixel_of(sims[2]), 1) << "zoomed in to single cells: " << sims[2];

  const std::set<Cell> glider = cells_of(cells[0]);
  ASSERT_EQ(glider.size(), 5u) << cells[0];
  std::set<Cell> painted;
  for (const Cell& c : cells_of(cells[1]))
    if (!glider.count(c)) painted.insert(c);
  ASSERT_EQ(painted.size(), 3u) << cells[1];
  const auto [x, y] = *painted.begin();
  EXPECT_EQ(painted, (std::set<Cell>{{x, y}, {x + 1, y}, {x + 2, y}})) << "one cell per click, side by side";

  EXPECT_NE(sims[3].find("generation=1 "), std::string::npos) << sims[3];
  const std::set<Cell> stepped = cells_of(cells[2]);
  for (const Cell& c : {Cell{x + 1, y - 1}, Cell{x + 1, y}, Cell{x + 1, y + 1}})
    EXPECT_TRUE(stepped.count(c)) << "the blinker's column lacks " << c.first << "," << c.second << ": " << cells[2];
  EXPECT_FALSE(stepped.count({x, y}) || stepped.count({x + 2, y})) << cells[2];
}

}  // namespace
}  // namespace ks::test
