// Life on the CPU backends (cpu and cpu_bitpacked) against facts of the Life literature (the glider, the
// blinker, the Gosper gun's glider stream) and against a straightforward reference written here: count the 8
// neighbours of every cell (wrapping or not) and look the count up in the rule's birth and survival sets,
// given as literal sets rather than parsed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>

#include "core/error.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "sim/life_patterns.hpp"
#include "sim/life_rule.hpp"
#include "sim/simulation.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

// Cells as 0/1, row-major.
struct Grid {
  int w = 0, h = 0;
  std::vector<int> c;
  int at(int x, int y) const { return c[std::size_t(y) * std::size_t(w) + std::size_t(x)]; }
  bool operator==(const Grid&) const = default;
};

struct Rule {
  std::set<int> birth, survive;
};

Grid reference_step(const Grid& g, const Rule& rule, bool torus) {
  Grid out = g;
  for (int y = 0; y < g.h; ++y)
    for (int x = 0; x < g.w; ++x) {
      int n = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (!dx && !dy) continue;
          int nx = x + dx, ny = y + dy;
          if (torus) {
            nx = (nx % g.w + g.w) % g.w;
            ny = (ny % g.h + g.h) % g.h;
          } else if (nx < 0 || ny < 0 || nx >= g.w || ny >= g.h) {
            continue;
          }
          n += g.at(nx, ny);
        }
      const bool alive = g.at(x, y) != 0;
      out.c[std::size_t(y) * std::size_t(g.w) + std::size_t(x)] =
          alive ? int(rule.survive.count(n)) : int(rule.birth.count(n));
    }
  return out;
}

Grid random_grid(int w, int h, double density, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution alive(density);
  Grid g{w, h, std::vector<int>(std::size_t(w) * std::size_t(h))};
  for (int& v : g.c) v = alive(rng) ? 1 : 0;
  return g;
}

Image to_image(const Grid& g) {
  Image img(g.w, g.h, 1, ElemType::U8);
  auto e = img.elements<std::uint8_t>();
  for (std::size_t i = 0; i < g.c.size(); ++i) e[i] = g.c[i] ? 255 : 0;
  return img;
}

Grid from_image(const Image& img) {
  EXPECT_EQ(img.type(), ElemType::U8);
  Grid g{img.width(), img.height(), std::vector<int>(std::size_t(img.width()) * std::size_t(img.height()))};
  const auto e = img.elements<std::uint8_t>();
  for (std::size_t i = 0; i < g.c.size(); ++i) {
    EXPECT_TRUE(e[i] == 0 || e[i] == 255) << "cell value " << int(e[i]);
    g.c[i] = e[i] ? 1 : 0;
  }
  return g;
}

SimulationRequest life_request(const std::string& variant, const std::string& rule, bool torus, int w = 0,
                               int h = 0) {
  SimulationRequest r;
  r.kernel = "life";
  r.params = KernelRegistry::builtin().get("life").default_params();
  r.params.set("rule", rule);
  r.params.set("border", torus ? "torus" : "dead");
  r.backend = Backend::Cpu;
  r.variant = variant;
  r.width = w;
  r.height = h;
  return r;
}

std::set<std::pair<int, int>> live_cells(const Grid& g) {
  std::set<std::pair<int, int>> s;
  for (int y = 0; y < g.h; ++y)
    for (int x = 0; x < g.w; ++x)
      if (g.at(x, y)) s.insert({x, y});
  return s;
}

const char* const kCpuVariants[] = {"cpu", "cpu_bitpacked"};

TEST(SimLife, GliderMovesOneCellDiagonallyEveryFourGenerations) {
  for (const char* variant : kCpuVariants)
    for (bool torus : {true, false}) {
      SCOPED_TRACE(std::string(variant) + (torus ? " torus" : " dead border"));
      Simulation sim(engine(), life_request(variant, "B3/S23", torus, 20, 20),
                     SimulationStart{.pattern = sim::builtin_pattern("glider")});
      const auto start = live_cells(from_image(sim.image()));
      ASSERT_EQ(start.size(), 5u);
      // The glider bob$2bo$3o travels towards +x, +y; 3 periods stay well inside the dead-border grid.
      for (int period = 1; period <= 3; ++period) {
        sim.step(4);
        std::set<std::pair<int, int>> moved;
        for (auto [x, y] : start) moved.insert({x + period, y + period});
        EXPECT_EQ(live_cells(from_image(sim.image())), moved) << "after " << 4 * period << " generations";
        EXPECT_EQ(sim.population(), 5);
      }
      if (torus) {
        // 20 periods move it 20 cells: once around the 20x20 torus, back where it started.
        sim.step(4 * 17);
        EXPECT_EQ(live_cells(from_image(sim.image())), start);
        EXPECT_EQ(sim.generation(), 80);
      }
    }
}

TEST(SimLife, BlinkerHasPeriodTwo) {
  for (const char* variant : kCpuVariants) {
    SCOPED_TRACE(variant);
    Simulation sim(engine(), life_request(variant, "B3/S23", false, 5, 5),
                   SimulationStart{.pattern = sim::builtin_pattern("blinker")});
    const std::set<std::pair<int, int>> horizontal = {{1, 2}, {2, 2}, {3, 2}};
    const std::set<std::pair<int, int>> vertical = {{2, 1}, {2, 2}, {2, 3}};
    EXPECT_EQ(live_cells(from_image(sim.image())), horizontal);
    sim.step(1);
    EXPECT_EQ(live_cells(from_image(sim.image())), vertical);
    sim.step(1);
    EXPECT_EQ(live_cells(from_image(sim.image())), horizontal);
    sim.step(99);
    EXPECT_EQ(live_cells(from_image(sim.image())), vertical);
    EXPECT_EQ(sim.population(), 3);
  }
}

TEST(SimLife, GosperGunEmitsOneGliderEvery30Generations) {
  // On a large dead-border grid, no glider reaches the edge within 300 generations; the gun has period 30 and
  // each period adds one glider of 5 cells to its 36.
  for (const char* variant : kCpuVariants) {
    SCOPED_TRACE(variant);
    Simulation sim(engine(), life_request(variant, "B3/S23", false, 240, 240),
                   SimulationStart{.pattern = sim::builtin_pattern("gosper-gun")});
    EXPECT_EQ(sim.population(), 36);
    for (int k = 1; k <= 10; ++k) {
      sim.step(30);
      EXPECT_EQ(sim.population(), 36 + 5 * k) << "after " << 30 * k << " generations";
    }
  }
}

struct RuleCase {
  const char* text;
  Rule rule;
};

const RuleCase kRules[] = {
    {"B3/S23", {{3}, {2, 3}}},
    {"B36/S23", {{3, 6}, {2, 3}}},
    {"B2/S", {{2}, {}}},
    {"B3678/S34678", {{3, 6, 7, 8}, {3, 4, 6, 7, 8}}},
    {"B1357/S02468", {{1, 3, 5, 7}, {0, 2, 4, 6, 8}}},  // counts 0 and 8 at both ends of the masks
};

TEST(SimLife, RulesMatchTheReferenceOnOddSizesForBothBorders) {
  const std::pair<int, int> sizes[] = {{1, 1}, {3, 5}, {64, 3}, {65, 2}, {131, 29}, {7, 1}, {1, 9}, {128, 4}};
  for (const auto& rc : kRules)
    for (auto [w, h] : sizes)
      for (bool torus : {true, false}) {
        const Grid start = random_grid(w, h, 0.4, std::uint32_t(w * 131 + h));
        for (const char* variant : kCpuVariants) {
          SCOPED_TRACE(fmt::format("{} {}x{} {} {}", rc.text, w, h, torus ? "torus" : "dead", variant));
          Simulation sim(engine(), life_request(variant, rc.text, torus),
                         SimulationStart{.image = to_image(start)});
          Grid expected = start;
          for (int gen = 1; gen <= 24; ++gen) {
            expected = reference_step(expected, rc.rule, torus);
            sim.step(1);
            const Grid got = from_image(sim.image());
            ASSERT_EQ(got, expected) << "generation " << gen;
          }
        }
      }
}

TEST(SimLife, BitpackedEqualsByteReferenceOnALargeGrid) {
  for (bool torus : {true, false}) {
    SCOPED_TRACE(torus ? "torus" : "dead");
    SimulationRequest bytes = life_request("cpu", "B36/S23", torus, 333, 200);
    SimulationRequest bits = life_request("cpu_bitpacked", "B36/S23", torus, 333, 200);
    bytes.params.set("density", "0.35");
    bits.params.set("density", "0.35");
    Simulation a(engine(), bytes), b(engine(), bits);
    ASSERT_EQ(from_image(a.image()), from_image(b.image()));  // same seed, same random fill
    a.step(300);
    b.step(300);
    EXPECT_EQ(from_image(a.image()), from_image(b.image()));
    EXPECT_EQ(a.population(), b.population());
    EXPECT_GT(a.population(), 0);
  }
}

TEST(SimLifeRule, ParsesBSNotationAndItsOtherForms) {
  using sim::parse_life_rule;
  const auto bits = [](std::initializer_list<int> counts) {
    std::uint16_t m = 0;
    for (int c : counts) m |= std::uint16_t(1u << c);
    return m;
  };
  EXPECT_EQ(parse_life_rule("B3/S23"), (sim::LifeRule{bits({3}), bits({2, 3})}));
  EXPECT_EQ(parse_life_rule("B36/S23"), (sim::LifeRule{bits({3, 6}), bits({2, 3})}));
  EXPECT_EQ(parse_life_rule("B2/S"), (sim::LifeRule{bits({2}), 0}));
  EXPECT_EQ(parse_life_rule("B3678/S34678"), (sim::LifeRule{bits({3, 6, 7, 8}), bits({3, 4, 6, 7, 8})}));
  EXPECT_EQ(parse_life_rule("b3s23"), parse_life_rule("B3/S23"));
  EXPECT_EQ(parse_life_rule("S23/B3"), parse_life_rule("B3/S23"));
  EXPECT_EQ(parse_life_rule("23/3"), parse_life_rule("B3/S23"));  // the older survival/birth form
  EXPECT_EQ(parse_life_rule("HighLife"), parse_life_rule("B36/S23"));
  EXPECT_EQ(parse_life_rule("daynight"), parse_life_rule("B3678/S34678"));
  EXPECT_EQ(sim::to_string(parse_life_rule("s32/b63")), "B36/S23");
}

TEST(SimLifeRule, RefusesMalformedRulesSayingWhy) {
  const std::pair<const char*, const char*> bad[] = {{"B9/S23", "9 is not a neighbour count"},
                                                     {"B3/S2x", "unexpected 'x'"},
                                                     {"", "empty"},
                                                     {"B33/S23", "appears twice"},
                                                     {"B3", "no S part"},
                                                     {"conwayy", "not a rule"},
                                                     {"3/2/1", "not a rule"}};
  for (auto [text, why] : bad) {
    try {
      sim::parse_life_rule(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << text << ": " << e.what();
      EXPECT_NE(e.hint().find("B3/S23"), std::string::npos) << e.hint();
    }
  }
  // Through the parameter set too: a bad rule never reaches a simulation.
  ParamSet p = KernelRegistry::builtin().get("life").default_params();
  EXPECT_THROW(p.set("rule", "B3/S239"), Error);
  p.set("rule", "b36/s23");
  EXPECT_EQ(p.get_text("rule"), "B36/S23");
}

}  // namespace
}  // namespace ks
