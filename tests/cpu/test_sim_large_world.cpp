// Life on a 65536 x 65536 world, the parts the CPU can check without taking gigabytes: which variants may
// hold which grids (and what the refusal says), the memory estimate shown before a start and the refusal when
// memory is short, the packed initial state (the same cells as the byte one), the density view (against
// counting the cells of a byte image here), painting the packed words, the passes of the multistep variant,
// and the bit-sliced word arithmetic of the multistep kernel (32-bit words, Conway's short form) against the
// rule table.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "core/error.hpp"
#include "sim/cpu/life_cpu.hpp"
#include "sim/density_view.hpp"
#include "sim/initial_state.hpp"
#include "sim/life_multistep.hpp"
#include "sim/pass_steps.hpp"
#include "sim/life_patterns.hpp"
#include "sim/life_rule.hpp"
#include "sim/sim_memory.hpp"
#include "support/sim_support.hpp"

namespace ks {
namespace {

using sim_test::engine;
using sim_test::sim_request;
using sim_test::usage_error;

constexpr int kWorld = 65536;

TEST(SimLargeWorld, PackedLifeVariantsAcceptA65536SquaredWorld) {
  for (const char* variant : {"cpu_bitpacked", "bitpacked", "multistep"})
    EXPECT_NO_THROW(sim::check_grid_size(sim::SimKind::Life, variant, kWorld, kWorld)) << variant;
}

TEST(SimLargeWorld, ByteVariantsRefuseItAndNameThePackedOnes) {
  for (const char* variant : {"cpu", "naive", "tiled"}) {
    const std::string msg =
        usage_error([&] { sim::check_grid_size(sim::SimKind::Life, variant, kWorld, kWorld); });
    EXPECT_NE(msg.find("4294967296 cells"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::string("'") + variant + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("--variant bitpacked or multistep"), std::string::npos) << msg;
    EXPECT_NE(msg.find("cpu_bitpacked"), std::string::npos) << msg;
  }
  // 32768 x 32768 = 2^30 cells is still a byte grid's.
  EXPECT_NO_THROW(sim::check_grid_size(sim::SimKind::Life, "cpu", 32768, 32768));
  EXPECT_NE(usage_error([] {
              sim::check_grid_size(sim::SimKind::Life, "cpu", 32768, 32769);
            }).find("cpu_bitpacked"),
            std::string::npos);
}

TEST(SimLargeWorld, NoVariantTakesMoreThan65536ASideAndFieldsKeepTheirLimit) {
  for (const char* variant : {"cpu_bitpacked", "bitpacked", "multistep", "cpu"})
    EXPECT_NE(usage_error([&] {
                sim::check_grid_size(sim::SimKind::Life, variant, kWorld + 1, 7);
              }).find("at most 65536 cells per side"),
              std::string::npos);
  EXPECT_NE(usage_error([] {
              sim::check_grid_size(sim::SimKind::Heat, "strip", kWorld, kWorld);
            }).find("1073741824 cells in all"),
            std::string::npos);
  EXPECT_NE(usage_error([] { sim::check_grid_size(sim::SimKind::Life, "bitpacked", 0, 5); }).find("no cells"),
            std::string::npos);
}

TEST(SimLargeWorld, ASimulationOfAByteVariantIsRefusedBeforeAnyMemoryIsTaken) {
  // 4.3 GB of bytes would be taken three times over if the check came after the allocation.
  const std::string msg =
      usage_error([] { Simulation(engine(), sim_request("life", {}, Backend::Cpu, "cpu", kWorld, kWorld)); });
  EXPECT_NE(msg.find("cpu_bitpacked"), std::string::npos) << msg;
}

TEST(SimLargeWorld, TheMemoryEstimateCountsThePackedCopies) {
  // 65536 / 64 = 1024 words = 8192 bytes a row (a multiple of the pitch alignment), 65536 rows: 2^29 bytes a
  // copy.
  const std::uint64_t copy = 536870912;
  const sim::SimMemoryNeed gpu =
      sim::simulation_memory(sim::SimKind::Life, "multistep", Backend::Cuda, kWorld, kWorld);
  EXPECT_EQ(gpu.host_bytes, copy);                      // the initial state, kept for reset
  EXPECT_EQ(gpu.device_bytes, 2 * copy + (64u << 20));  // two state buffers and the context's reserve
  const sim::SimMemoryNeed cpu =
      sim::simulation_memory(sim::SimKind::Life, "cpu_bitpacked", Backend::Cpu, kWorld, kWorld);
  EXPECT_EQ(cpu.host_bytes, 3 * copy);
  EXPECT_EQ(cpu.device_bytes, 0u);
  // A byte grid of 1023 x 7: 7161 bytes a copy; rows of 1023 bytes pitched to 1024 on the device.
  const sim::SimMemoryNeed bytes =
      sim::simulation_memory(sim::SimKind::Life, "naive", Backend::Cuda, 1023, 7);
  EXPECT_EQ(bytes.host_bytes, 7161u);
  EXPECT_EQ(bytes.device_bytes, 2u * 1024 * 7 + (64u << 20));
  EXPECT_EQ(sim::memory_text(gpu),
            "537 MB of host memory (initial state 537 MB); 1.14 GB of GPU memory (2 state buffers 1.07 GB, "
            "reserve 67.1 MB)");
}

TEST(SimLargeWorld, MemoryNeededResolvesTheRequestWithoutAllocating) {
  SimulationRequest r = sim_request("life", {}, Backend::Cpu, "cpu_bitpacked", kWorld, kWorld);
  EXPECT_EQ(Simulation::memory_needed(r).host_bytes, 3u * 536870912);
  r.variant = "";  // the CPU default is the byte variant
  EXPECT_NE(usage_error([&] { Simulation::memory_needed(r); }).find("cpu_bitpacked"), std::string::npos);
}

TEST(SimLargeWorld, TooLittleMemoryIsRefusedWithBothFigures) {
  const std::string msg = usage_error([] {
    sim::require_memory("life cpu_bitpacked on a 65536x65536 grid", 1610612736, 1000000000, "host",
                        "initial state 537 MB, 2 state buffers 1.07 GB", "", "use a smaller --size");
  });
  EXPECT_NE(
      msg.find("needs 1.61 GB of host memory (initial state 537 MB, 2 state buffers 1.07 GB), but 1 GB is "
               "free"),
      std::string::npos)
      << msg;
  EXPECT_NE(msg.find("use a smaller --size"), std::string::npos) << msg;
  EXPECT_NO_THROW(
      sim::require_memory("x", 1610612736, std::nullopt, "host", "", "", ""));  // unknown: not refused
  EXPECT_NO_THROW(sim::require_memory("x", 100, 100, "host", "", "", ""));
}

// The packed start holds exactly the cells of the byte start, for every way of starting.
TEST(SimLargeWorld, ThePackedInitialStateHasTheByteStatesCells) {
  for (auto [w, h] : {std::pair{1, 1}, {65, 129}, {1023, 7}, {64, 3}, {130, 66}}) {
    sim::SimModel m;
    m.kind = sim::SimKind::Life;
    m.width = w, m.height = h;
    m.life.density = 0.37;
    m.life.seed = 5;
    const std::string where = fmt::format("{}x{}", w, h);
    const Image random_bytes = sim::initial_fields(m, std::nullopt, std::nullopt)[0];
    const sim::cpu::LifeWords random_words = sim::initial_life_words(m, std::nullopt, std::nullopt);
    EXPECT_TRUE(test::images_match(sim::cpu::unpack_life(random_words), random_bytes)) << where;
    const Image picture = test::random_image(w, h, 3, ElemType::U8, 9);
    EXPECT_TRUE(test::images_match(sim::cpu::unpack_life(sim::initial_life_words(m, picture, std::nullopt)),
                                   sim::initial_fields(m, picture, std::nullopt)[0]))
        << where;
  }
  sim::SimModel m;
  m.kind = sim::SimKind::Life;
  m.width = 101, m.height = 37;
  const auto glider = sim::builtin_pattern("glider");
  EXPECT_TRUE(test::images_match(sim::cpu::unpack_life(sim::initial_life_words(m, std::nullopt, glider)),
                                 sim::initial_fields(m, std::nullopt, glider)[0]));
}

// Counted here from the byte image, cell by cell.
Image density_by_counting(const Image& cells, const sim::DensityWindow& w) {
  Image out(w.width, w.height, 1, ElemType::F32);
  for (int py = 0; py < w.height; ++py)
    for (int px = 0; px < w.width; ++px) {
      long long live = 0;
      for (long long dy = 0; dy < w.cells_per_pixel; ++dy)
        for (long long dx = 0; dx < w.cells_per_pixel; ++dx) {
          const long long x = w.x0 + 1LL * px * w.cells_per_pixel + dx,
                          y = w.y0 + 1LL * py * w.cells_per_pixel + dy;
          if (x >= 0 && y >= 0 && x < cells.width() && y < cells.height())
            live += cells.row<std::uint8_t>(int(y))[x] != 0;
        }
      out.row<float>(py)[px] = float(double(live) / (double(w.cells_per_pixel) * w.cells_per_pixel));
    }
  return out;
}

TEST(SimLargeWorld, TheDensityViewIsTheFractionOfLiveCellsUnderEachPixel) {
  for (const char* variant : {"cpu", "cpu_bitpacked"})
    for (auto [w, h] : {std::pair{1023, 7}, {65, 129}, {200, 130}}) {
      Simulation s(engine(), sim_request("life", {"density=0.4", "seed=3"}, Backend::Cpu, variant, w, h));
      s.step(3);
      const Image cells = s.image();
      for (const sim::DensityWindow win :
           {sim::DensityWindow{0, 0, 1, w, h}, sim::DensityWindow{-5, -3, 3, 40, 20},
            sim::DensityWindow{17, 2, 64, 20, 3}, sim::DensityWindow{60, 0, 7, 9, 30}}) {
        const Image got = s.density_view(win);
        ASSERT_EQ(got.width(), win.width);
        ASSERT_EQ(got.height(), win.height);
        EXPECT_TRUE(test::images_match(got, density_by_counting(cells, win)))
            << variant << " " << w << "x" << h << " window at " << win.x0 << "," << win.y0 << " x"
            << win.cells_per_pixel;
      }
    }
}

TEST(SimLargeWorld, DensityViewsOutsideTheLimitsAreUsageErrors) {
  Simulation s(engine(), sim_request("life", {}, Backend::Cpu, "cpu_bitpacked", 64, 64));
  EXPECT_NE(usage_error([&] { s.density_view({0, 0, 0, 8, 8}); }).find("cells per pixel"), std::string::npos);
  EXPECT_NE(usage_error([&] { s.density_view({0, 0, 1, 0, 8}); }).find("pixels"), std::string::npos);
  Simulation heat(engine(), sim_request("heat", {}, Backend::Cpu, "cpu", 16, 16));
  EXPECT_NE(usage_error([&] { heat.density_view({0, 0, 1, 8, 8}); }).find("only life"), std::string::npos);
}

TEST(SimLargeWorld, PaintingPackedWordsEqualsPaintingBytes) {
  Simulation bytes(engine(), sim_request("life", {"density=0.5"}, Backend::Cpu, "cpu", 130, 67));
  Simulation words(engine(), sim_request("life", {"density=0.5"}, Backend::Cpu, "cpu_bitpacked", 130, 67));
  for (auto [x, y, r, v] : {std::tuple{0, 0, 3, 1.0},
                            {129, 66, 5, 0.0},
                            {64, 30, 10, 1.0},
                            {63, 3, 0, 0.0},
                            {200, 10, 80, 0.0},
                            {-20, 40, 25, 1.0}}) {
    bytes.paint(x, y, r, v);
    words.paint(x, y, r, v);
    EXPECT_TRUE(test::images_match(words.image(), bytes.image())) << x << "," << y << " r " << r;
    EXPECT_EQ(words.population(), bytes.population());
  }
}

TEST(SimLargeWorld, MultistepPassesEndOnTheCompiledPassLengths) {
  for (int k : {1, 2, 4, 8}) EXPECT_TRUE(sim::is_multistep_pass(k));
  for (int k : {0, 3, 16, 32}) EXPECT_FALSE(sim::is_multistep_pass(k));
  auto passes = [](long long n, int k) {
    std::vector<int> p;
    while (n > 0) n -= p.emplace_back(sim::steps_in_next_pass(k, n));
    return p;
  };
  EXPECT_EQ(passes(7, 8), (std::vector<int>{4, 2, 1}));
  EXPECT_EQ(passes(17, 8), (std::vector<int>{8, 8, 1}));
  EXPECT_EQ(passes(13, 4), (std::vector<int>{4, 4, 4, 1}));
  EXPECT_EQ(passes(3, 1), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(passes(8, 8), (std::vector<int>{8}));
}

// The multistep kernel's word arithmetic, on 32-bit words and in Conway's short form, against the rule as a
// table of birth and survival counts, for every 3x3 neighbourhood of the middle cell of a word.
template <class Word>
void check_word_rule(const std::string& rule_text, bool conway_form) {
  const sim::LifeRule rule = sim::parse_life_rule(rule_text);
  const sim::LifeMasks masks = sim::life_masks(rule);
  constexpr int bits = int(sizeof(Word) * 8);
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    Word row[3];
    for (Word& r : row) r = Word(rng());
    sim::RowSumOf<Word> s[3];
    for (int i = 0; i < 3; ++i) s[i] = sim::row_sum<Word>(row[i], 0, 0);
    const Word next = conway_form ? sim::conway_word_next<Word>(row[1], s[0], s[1], s[2])
                                  : sim::life_word_next<Word>(row[1], s[0], s[1], s[2], masks);
    for (int b = 1; b < bits - 1; ++b) {  // the cells whose neighbours are all in the three words
      int n = 0;
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (!(dy == 1 && dx == 0)) n += int((row[dy] >> (b + dx)) & 1);
      const bool alive = (row[1] >> b) & 1;
      const bool expected = alive ? (rule.survive >> n) & 1 : (rule.birth >> n) & 1;
      ASSERT_EQ(bool((next >> b) & 1), expected) << rule_text << " bit " << b << " neighbours " << n;
    }
  }
}

TEST(SimLargeWorld, TheWordArithmeticAppliesEachRuleOn32And64BitWords) {
  for (const char* rule : {"B3/S23", "B36/S23", "B2/S", "B3678/S34678", "B0/S8", "B012345678/S012345678"}) {
    check_word_rule<std::uint32_t>(rule, false);
    check_word_rule<std::uint64_t>(rule, false);
  }
  check_word_rule<std::uint32_t>("B3/S23", true);
  check_word_rule<std::uint64_t>("B3/S23", true);
}

}  // namespace
}  // namespace ks
