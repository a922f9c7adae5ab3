// The Topology document's proof by branch and bound: the proof on its worker, the result in the sweep's form
// (selection, network), the live gap curve, the JSON export with the `proof` object, Cancel keeping the best
// and the gap, and settings that cannot run. CPU backend; no GL, no ImGui.
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

TopologyDocument::Options cpu_only() { return {2, false}; }

TEST(TopologyProofDocument, ProvesNug12AndExportsTheProof) {
  const fs::path file = data("qaplib/nug12.dat");
  KS_REQUIRE_DATA(file);
  TopologyDocument doc(cpu_only());
  doc.open_traffic(file);
  doc.settings().placements = "bnb";
  EXPECT_EQ(doc.forecast(), nullptr);  // no sweep estimate for a proof
  doc.run();
  doc.wait_idle();
  const TopologyRun* run = doc.run_result();
  ASSERT_NE(run, nullptr) << doc.last_error();
  ASSERT_TRUE(run->proof);
  EXPECT_TRUE(run->proof->best().proof.optimal);
  EXPECT_EQ(run->proof->best().best.scaled, 578);  // nug12's published optimum
  EXPECT_EQ(doc.selected_cost()->scaled, 578);
  EXPECT_EQ(doc.selected_placement(), run->proof->best().placement);
  const ProofLive& live = doc.proof_live();
  EXPECT_FALSE(live.running);
  EXPECT_EQ(live.bound.scaled, 578);
  EXPECT_FALSE(live.curve.empty());

  test::TempDir dir;
  doc.export_json(dir / "proof.json");
  std::ifstream in(dir / "proof.json");
  std::stringstream text;
  text << in.rdbuf();
  const auto j = nlohmann::json::parse(text.str());
  EXPECT_EQ(j["schema"], "kernelscope.topo.bnb/1");
  EXPECT_TRUE(j["proof"]["optimal"].get<bool>());
  EXPECT_EQ(j["proof"]["best_bound"], 578);
  EXPECT_EQ(j["selection"]["cost"], 578);
}

TEST(TopologyProofDocument, CancelKeepsTheBestAndTheGap) {
  TopologyDocument doc(cpu_only());
  doc.generate_traffic("uniform:n=22,t=1,seed=3");
  doc.add_topology("torus:11x2");
  doc.settings().placements = "bnb";
  doc.run();
  for (int k = 0; k < 600 && doc.proof_live().curve.empty(); ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    doc.poll();
  }
  ASSERT_FALSE(doc.proof_live().curve.empty()) << "no progress within 12 s";
  EXPECT_TRUE(doc.proof_live().running);
  doc.cancel();
  doc.wait_idle();
  const TopologyRun* run = doc.run_result();
  ASSERT_NE(run, nullptr) << doc.last_error();
  ASSERT_TRUE(run->proof);
  EXPECT_FALSE(run->proof->complete);
  EXPECT_FALSE(run->proof->best().proof.optimal);
  EXPECT_LE(run->proof->best().proof.best_bound.scaled, run->proof->best().best.scaled);
  EXPECT_EQ(run->proof->best().placement.size(), 22u);
  EXPECT_TRUE(doc.selected_network());
}

TEST(TopologyProofDocument, SettingsThatCannotRunAreRefused) {
  TopologyDocument doc(cpu_only());
  doc.generate_traffic("uniform:n=6,t=1,seed=3");
  doc.add_topology("ring");
  doc.settings().placements = "bnb";
  doc.settings().proof.time_s = -1;
  EXPECT_THROW(doc.run(), Error);
  doc.settings().proof.time_s = 0;
  doc.settings().backend = Backend::Cuda;
  EXPECT_THROW(doc.run(), Error);
}

}  // namespace
}  // namespace ks::app
