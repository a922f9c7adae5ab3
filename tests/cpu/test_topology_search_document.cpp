// The Topology document's placement search: a search on its worker with the live view (the curve, the best
// placement so far on the network), the result in the sweep's form, the best known cost of a QAPLIB instance,
// the JSON export, Cancel keeping the best so far, and settings that cannot run. CPU backend; no GL, no
// ImGui.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "session/topology/topology_document.hpp"
#include "support/shared_data.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

using test::data;

namespace fs = std::filesystem;

TopologyDocument::Options cpu_only() {
  return {2, false};
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(TopologySearchDocument, QaplibSearchFindsTheOptimumAndExportsItsCurve) {
  const fs::path file = data("qaplib-large/nug30.dat");
  if (!fs::exists(file)) GTEST_SKIP() << "no " << file;
  TopologyDocument doc(cpu_only());
  doc.open_traffic(file);
  doc.settings().placements = "search";
  doc.settings().search.time_s = 60;
  doc.settings().search.target = 6124;  // nug30's optimum
  doc.run();
  doc.wait_idle();
  const TopologyRun* run = doc.run_result();
  ASSERT_NE(run, nullptr) << doc.last_error();
  ASSERT_TRUE(run->search);
  EXPECT_EQ(run->search->best().best.scaled, 6124);
  EXPECT_EQ(run->search->stopped_by, "target");
  ASSERT_TRUE(run->reference);
  EXPECT_EQ(*run->reference, 6124);  // nug30.sln beside the .dat
  // The sweep's form: the selection is the best placement and the views read it as a sweep's.
  EXPECT_EQ(doc.selected_cost()->scaled, 6124);
  EXPECT_EQ(doc.selected_placement(), run->search->best().placement);
  const SearchLive& live = doc.search_live();
  EXPECT_FALSE(live.running);
  EXPECT_EQ(live.best.scaled, 6124);
  ASSERT_GE(live.curve.size(), 2u);
  EXPECT_EQ(live.curve.back().best.scaled, 6124);
  test::TempDir dir;
  doc.export_json(dir / "s.json");
  const auto j = nlohmann::json::parse(read_text(dir / "s.json"));
  EXPECT_EQ(j["schema"], "kernelscope.topo.search/1");
  EXPECT_EQ(j["best"]["cost"], 6124);
  EXPECT_EQ(j["reference"]["gap_percent"].get<double>(), 0.0);
  EXPECT_GE(j["configurations"][0]["curve"].size(), 2u);
  EXPECT_EQ(j["selection"]["cost"], 6124);
}

// A network with routes: the best placement so far is drawn with its link loads (which add up to its cost on
// the hop metric), and every configuration gets its own search.
TEST(TopologySearchDocument, BestPlacementOnTheNetwork) {
  const fs::path file = data("sndlib/abilene.txt");
  if (!fs::exists(file)) GTEST_SKIP() << "no " << file;
  TopologyDocument doc(cpu_only());
  doc.open_traffic(file);
  doc.add_topology("ring");
  doc.settings().placements = "search";
  doc.settings().search.time_s = 0;
  doc.settings().search.iterations = 3000;
  doc.run();
  doc.wait_idle();
  const TopologyRun* run = doc.run_result();
  ASSERT_NE(run, nullptr) << doc.last_error();
  ASSERT_EQ(run->search->configurations.size(), 2u);
  const auto net = doc.live_network();
  ASSERT_TRUE(net);
  double total = 0;
  for (const auto& e : net->edges) total += e.load * e.weight;
  EXPECT_NEAR(total, doc.search_live().best.value, 1e-9 * total);
  EXPECT_EQ(doc.search_live().configuration, run->search->best_configuration);
  const auto selected = doc.selected_network();
  ASSERT_TRUE(selected);
  EXPECT_EQ(selected->weighted_total, net->weighted_total);
}

TEST(TopologySearchDocument, CancelKeepsTheBestSoFar) {
  TopologyDocument doc(cpu_only());
  doc.generate_traffic("uniform:n=40,t=1,seed=3");
  doc.add_topology("torus:8x5");
  doc.settings().placements = "search";
  doc.settings().search.time_s = 120;
  doc.run();
  for (int k = 0; k < 600 && doc.search_live().curve.empty(); ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    doc.poll();
  }
  ASSERT_FALSE(doc.search_live().curve.empty()) << "no progress within 12 s";
  EXPECT_TRUE(doc.search_live().running);
  EXPECT_TRUE(doc.live_network());  // drawn while it runs
  doc.cancel();
  doc.wait_idle();
  const TopologyRun* run = doc.run_result();
  ASSERT_NE(run, nullptr) << doc.last_error();
  EXPECT_FALSE(run->search->complete);
  EXPECT_FALSE(run->result.complete);
  EXPECT_EQ(run->search->best().placement.size(), 40u);
  EXPECT_EQ(doc.selected_placement(), run->search->best().placement);
}

TEST(TopologySearchDocument, SettingsThatCannotRunAreRefused) {
  TopologyDocument doc(cpu_only());
  doc.generate_traffic("uniform:n=6,t=1,seed=3");
  doc.add_topology("ring");
  doc.settings().placements = "search";
  doc.settings().search.time_s = 0;
  doc.settings().search.iterations = 0;
  EXPECT_THROW(doc.run(), Error);
  doc.settings().search.time_s = 1;
  doc.settings().search.params.set("algorithm", "anneal");
  EXPECT_THROW(doc.settings().search.params.set("tenure", "-1"), Error);  // the registry's range
  doc.settings().backend = Backend::Cuda;
  EXPECT_THROW(doc.run(), Error);  // CUDA is switched off in this document
}

}  // namespace
}  // namespace ks::app
