// The RLE reader on files as LifeWiki and Golly write them, and on damaged files: every error names the
// source and the line, and says what is wrong there.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "core/error.hpp"
#include "sim/life_patterns.hpp"
#include "sim/rle.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

using sim::LifePattern;
using sim::parse_rle;

std::set<std::pair<int, int>> live(const LifePattern& p) {
  std::set<std::pair<int, int>> s;
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x)
      if (p.alive(x, y)) s.insert({x, y});
  return s;
}

TEST(SimRle, ReadsTheGliderAsLifeWikiWritesIt) {
  const LifePattern p = parse_rle(
      "#N Glider\n#O Richard K. Guy\n#C The smallest, most common, and first discovered spaceship.\n"
      "#C www.conwaylife.com/wiki/index.php?title=Glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n",
      "glider.rle");
  EXPECT_EQ(p.name, "Glider");
  EXPECT_EQ(p.width, 3);
  EXPECT_EQ(p.height, 3);
  ASSERT_TRUE(p.rule.has_value());
  EXPECT_EQ(*p.rule, "B3/S23");
  EXPECT_EQ(live(p), (std::set<std::pair<int, int>>{{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}));
  EXPECT_EQ(p.population(), 5);
  EXPECT_EQ(p.comments.size(), 3u);  // #O and the two #C lines
}

TEST(SimRle, ReadsTheGosperGunWithWrappedLines) {
  const LifePattern p = parse_rle(
      "#N Gosper glider gun\r\n#C This was the first gun discovered.\r\nx = 36, y = 9, rule = B3/S23\r\n"
      "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\r\n"
      "obo$10bo5bo7bo$11bo3bo$12b2o!\r\n",
      "gun.rle");
  EXPECT_EQ(p.width, 36);
  EXPECT_EQ(p.height, 9);
  EXPECT_EQ(p.population(), 36);
  // The two blocks at its ends, and cells of the two halves.
  for (auto [x, y] : {std::pair{0, 4},
                      {1, 4},
                      {0, 5},
                      {1, 5},
                      {34, 2},
                      {35, 2},
                      {34, 3},
                      {35, 3},
                      {24, 0},
                      {12, 8},
                      {13, 8},
                      {22, 5},
                      {24, 5},
                      {24, 6}})
    EXPECT_TRUE(p.alive(x, y)) << x << "," << y;
  EXPECT_FALSE(p.alive(23, 5));
  EXPECT_FALSE(p.alive(35, 8));
  // The built-in copy is the same pattern.
  EXPECT_EQ(sim::builtin_pattern("gosper-gun").cells, p.cells);
}

TEST(SimRle, AcceptsBlanksRunsOfRowsOmittedDeadCellsAndTextAfterTheEnd) {
  const LifePattern p = parse_rle("x=4,y=5\n o 2b o $\n\n2$ 4o\n$!this is ignored\nand so is this", "t");
  EXPECT_EQ(p.width, 4);
  EXPECT_EQ(p.height, 5);
  EXPECT_EQ(live(p), (std::set<std::pair<int, int>>{{0, 0}, {3, 0}, {0, 3}, {1, 3}, {2, 3}, {3, 3}}));
  EXPECT_FALSE(p.rule.has_value());
  EXPECT_EQ(p.name, "t");
  // The older S/B rule form in a header.
  EXPECT_EQ(*parse_rle("x = 1, y = 1, rule = 23/36\no!", "t").rule, "B36/S23");
}

struct Malformed {
  const char* text;
  const char* where;  // "line N" the message must name
  const char* what;   // and a phrase of what is wrong
};

const Malformed kMalformed[] = {
    {"", "", "empty"},
    {"#N nothing\n#C but comments\n", "line 2", "no header"},
    {"#N x\nbob$2bo$3o!\n", "line 2", "header"},
    {"x = 3\nbob!", "line 1", "both x (width) and y"},
    {"x = 3, y = three\nbob!", "line 1", "is not a whole number"},
    {"x = 3, y = 3, rule = B9/S23\nbob!", "line 1", "9 is not a neighbour count"},
    {"x = 3, y = 3, colour = red\nbob!", "line 1", "unknown header item"},
    {"x = 3, y = 3\nbob$2bo$\n4o!", "line 3", "more than the header's x = 3"},
    {"x = 3, y = 2\nbob$\nbo$o!", "line 3", "more than the header's y = 2"},
    {"x = 3, y = 3\nbob$2bo$3o\n", "line 2", "without '!'"},
    {"#N two-state only\nx = 3, y = 3\nbAb$2bo$3o!", "line 3", "not a two-state cell"},
    {"x = 3, y = 3\nbob$2%o$3o!", "line 2", "unexpected character '%'"},
    {"x = 3, y = 3\nbob$0o$3o!", "line 2", "run count of 0"},
    {"x = 99999, y = 99999\no!", "line 1", "more than the"},
};

TEST(SimRle, MalformedFilesGiveErrorsWithLineNumbers) {
  for (const auto& m : kMalformed) {
    SCOPED_TRACE(m.text);
    try {
      parse_rle(m.text, "bad.rle");
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_EQ(e.kind(), ErrorKind::Io);
      EXPECT_EQ(msg.rfind("bad.rle", 0), 0u) << msg;
      EXPECT_NE(msg.find(m.where), std::string::npos) << msg;
      EXPECT_NE(msg.find(m.what), std::string::npos) << msg;
      EXPECT_NE(e.hint().find("x = WIDTH"), std::string::npos) << e.hint();
    }
  }
}

TEST(SimRle, FilesAreReadAndMissingOnesAreErrors) {
  test::TempDir dir;
  std::ofstream(dir / "glider.rle") << "#N Glider\nx = 3, y = 3\nbob$2bo$3o!\n";
  EXPECT_EQ(sim::load_rle_file(dir / "glider.rle").population(), 5);
  try {
    sim::load_rle_file(dir / "missing.rle");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_NE(std::string(e.what()).find("missing.rle"), std::string::npos);
  }
  EXPECT_THROW(sim::load_rle_file(dir.path()), Error);
}

TEST(SimRle, EveryBuiltInPatternParsesAndFitsItsDescription) {
  for (const auto& b : sim::builtin_patterns()) {
    SCOPED_TRACE(b.name);
    const LifePattern p = sim::builtin_pattern(b.name);
    EXPECT_GT(p.population(), 0);
    EXPECT_EQ(p.rule.value_or(""), "B3/S23");
  }
  EXPECT_EQ(sim::builtin_pattern("pulsar").population(), 48);
  EXPECT_EQ(sim::builtin_pattern("acorn").population(), 7);
  EXPECT_EQ(sim::builtin_pattern("lwss").population(), 9);
  EXPECT_THROW(sim::builtin_pattern("no-such-pattern"), Error);
}

}  // namespace
}  // namespace ks
