// The Topology panel's document: a sweep on its worker, the heatmap values, the selection, link loads that
// add up to the placement's cost, the exports and cancel. CPU backend only; no GL, no ImGui.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "session/topology/link_loads.hpp"
#include "session/topology/topology_document.hpp"
#include "support/test_support.hpp"
#include "topo/inputs/traffic_generators.hpp"

namespace ks::app {
namespace {

TopologyDocument::Options cpu_only() {
  return {2, false};
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The definition, straight: cost = sum over position pairs of traffic between the nodes placed there times
// the path cost between the positions. The minimum over every permutation by std::next_permutation.
double cost_of(const TopologyInputs& in, int slice, int config, const std::vector<int>& p) {
  const int n = in.traffic.node_count();
  const auto& c = in.configs[std::size_t(config)].cost;
  double sum = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      double t = 0;
      if (slice < in.traffic.timestamp_count()) {
        t = in.traffic.at(slice, p[std::size_t(i)], p[std::size_t(j)]);
      } else {
        for (int s = 0; s < in.traffic.timestamp_count(); ++s)
          t += in.traffic.at(s, p[std::size_t(i)], p[std::size_t(j)]);
      }
      sum += t * c[std::size_t(i) * std::size_t(n) + std::size_t(j)];
    }
  return sum;
}

double brute_force_min(const TopologyInputs& in, int slice, int config) {
  std::vector<int> p(std::size_t(in.traffic.node_count()));
  std::iota(p.begin(), p.end(), 0);
  double best = INFINITY;
  do best = std::min(best, cost_of(in, slice, config, p));
  while (std::next_permutation(p.begin(), p.end()));
  return best;
}

TEST(TopologyDocument, SampleSweepsOnTheWorkerAndFillsTheHeatmap) {
  TopologyDocument doc(cpu_only());
  doc.open_sample();
  EXPECT_TRUE(doc.busy() || doc.run_result());  // the sweep was queued, not run on this thread
  doc.wait_idle();
  ASSERT_NE(doc.run_result(), nullptr) << doc.last_error();
  const TopologyRun& run = *doc.run_result();
  EXPECT_TRUE(run.result.complete);
  EXPECT_EQ(run.inputs->traffic.node_count(), 8);
  EXPECT_EQ(run.inputs->traffic.timestamp_count(), 12);
  ASSERT_EQ(run.inputs->configs.size(), 8u);  // ring, torus:4x2, 6 OCS configurations
  EXPECT_FALSE(doc.inputs_changed_since_run());

  const CostGrid g = doc.cost_grid();
  ASSERT_EQ(g.rows, 12);
  ASSERT_EQ(g.cols, 8);
  for (int t = 0; t < g.rows; ++t) {
    int best = 0;
    for (int c = 0; c < g.cols; ++c) {
      ASSERT_TRUE(std::isfinite(g.at(t, c)));
      EXPECT_GE(g.at(t, c), g.lo);
      EXPECT_LE(g.at(t, c), g.hi);
      if (g.at(t, c) < g.at(t, best)) best = c;
    }
    EXPECT_EQ(g.best_col[std::size_t(t)], best) << "timestamp " << t;
  }
  // Cells checked against every permutation from the definition: a quiet and a busy timestamp, two
  // topologies.
  for (auto [t, c] : {std::pair{0, 0}, std::pair{6, 1}, std::pair{3, 5}})
    EXPECT_DOUBLE_EQ(g.at(t, c), brute_force_min(*run.inputs, t, c)) << "timestamp " << t << " config " << c;
}

TEST(TopologyDocument, SelectionStartsAtTheBestAndLinkLoadsAddUpToTheCost) {
  TopologyDocument doc(cpu_only());
  doc.open_sample();
  doc.wait_idle();
  ASSERT_NE(doc.run_result(), nullptr) << doc.last_error();
  const TopologyRun& run = *doc.run_result();
  const topo::BestPlacement best = topo::best_overall(run.result);
  EXPECT_EQ(doc.selection().slice, best.slice);
  EXPECT_EQ(doc.selection().configuration, best.configuration);

  // Every timestamp, the summed slice, and every configuration: with hops, each byte counts once per link.
  for (int slice = 0; slice < run.problem->slices; ++slice)
    for (int c = 0; c < run.problem->configs; ++c) {
      doc.select(slice, c);
      const auto cost = doc.selected_cost();
      const auto net = doc.selected_network();
      ASSERT_TRUE(cost && net);
      double loads = 0;
      for (const auto& e : net->edges) loads += e.load;
      EXPECT_DOUBLE_EQ(loads, cost->value) << "slice " << slice << " config " << c;
      EXPECT_DOUBLE_EQ(net->weighted_total, cost->value);
      EXPECT_DOUBLE_EQ(cost_of(*run.inputs, slice, c, doc.selected_placement()), cost->value);
      EXPECT_EQ(net->labels.size(), 8u);
    }

  // The top placements are of the summed slice, best first.
  ASSERT_EQ(run.result.top.size(), 10u);
  doc.select_top(2);
  EXPECT_EQ(doc.selection().slice, run.problem->timestamps);  // the sum
  EXPECT_EQ(doc.selected_placement(), run.result.top[2].placement);
  EXPECT_EQ(doc.selected_cost()->value, run.result.top[2].cost.value);
  EXPECT_LE(run.result.top[1].cost.value, run.result.top[2].cost.value);
  double loads = 0;
  const auto top_net = doc.selected_network();
  ASSERT_TRUE(top_net);
  for (const auto& e : top_net->edges) loads += e.load;
  EXPECT_DOUBLE_EQ(loads, run.result.top[2].cost.value);
  doc.select_top(-1);
  EXPECT_EQ(doc.selected_placement(),
            run.result.at(doc.selection().slice, doc.selection().configuration).placement);

  EXPECT_THROW(doc.select(run.problem->slices, 0), Error);
  EXPECT_THROW(doc.select(0, run.problem->configs), Error);
  EXPECT_THROW(doc.select_top(10), Error);
}

// A hand-made case: 4 nodes on a ring, traffic a->b 5 and a->c 7 at the identity placement. The route a->c
// has two equal choices; the lower-numbered neighbour (b) is taken. Links: a-b 12, b-c 7, others 0; cost 5*1
// + 7*2 = 19.
TEST(TopologyDocument, LinkLoadsOfAHandMadeRing) {
  test::TempDir dir;
  {
    std::ofstream f(dir / "t.csv");
    f << "timestamp,src,dst,value\n0,a,b,5\n0,a,c,7\n0,c,d,0\n";
  }
  TopologyDocument doc(cpu_only());
  doc.open_traffic(dir / "t.csv");
  doc.add_topology("ring");
  doc.settings().placements = "identity";
  doc.run();
  doc.wait_idle();
  ASSERT_NE(doc.run_result(), nullptr) << doc.last_error();
  const topo::TrafficSeries& tr = doc.run_result()->inputs->traffic;
  ASSERT_EQ(tr.node_count(), 4);
  EXPECT_EQ(doc.selected_cost()->value, 19);
  const auto net = doc.selected_network();
  ASSERT_TRUE(net);
  std::map<std::pair<std::string, std::string>, double> load;
  for (const auto& e : net->edges) {
    auto names = std::minmax(net->labels[std::size_t(e.a)], net->labels[std::size_t(e.b)]);
    load[names] = e.load;
  }
  ASSERT_EQ(tr.nodes, (std::vector<std::string>{"a", "b", "c", "d"}));
  const std::pair<std::string, std::string> a_b{"a", "b"}, b_c{"b", "c"}, c_d{"c", "d"}, a_d{"a", "d"};
  EXPECT_EQ(load[a_b], 12);
  EXPECT_EQ(load[b_c], 7);
  EXPECT_EQ(load[c_d], 0);
  EXPECT_EQ(load[a_d], 0);
  EXPECT_EQ(net->max_load, 12);
  EXPECT_FALSE(net->from_coordinates);
}

// SNDlib Abilene: the file's own links come first, drawn at their coordinates; with the weighted metric the
// loads times the link lengths (km) add up to the cost.
TEST(TopologyDocument, AbileneOwnLinksWeightedByKilometres) {
  const std::filesystem::path file = std::filesystem::path(KS_SHARED_DATA_DIR) / "sndlib" / "abilene.txt";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "no " << file;
  TopologyDocument doc(cpu_only());
  doc.open_traffic(file);
  ASSERT_EQ(doc.inputs()->sources.size(), 1u);
  EXPECT_EQ(doc.inputs()->sources[0].text, kOwnLinks);
  doc.set_metric("weighted");
  doc.add_topology("ring");
  doc.settings().placements = "sample:2000";
  doc.run();
  doc.wait_idle();
  ASSERT_NE(doc.run_result(), nullptr) << doc.last_error();
  ASSERT_EQ(doc.run_result()->inputs->configs.size(), 2u);
  doc.select(0, 0);
  const auto net = doc.selected_network();
  ASSERT_TRUE(net);
  EXPECT_TRUE(net->from_coordinates);
  EXPECT_EQ(net->edges.size(), 15u);
  double km = 0;
  for (const auto& e : net->edges) {
    EXPECT_GT(e.weight, 1.0);  // lengths in km, not hops
    km += e.load * e.weight;
  }
  EXPECT_NEAR(km, doc.selected_cost()->value, 1e-9 * km);
  doc.select(0, 1);  // the ring: no coordinates, a circle
  EXPECT_FALSE(doc.selected_network()->from_coordinates);
}

// A QAPLIB instance: matrix B is the traffic, matrix A the only configuration (path costs, no routes to
// draw); the identity placement's cost is the objective of the identity permutation, sum of A[i][j] *
// B[i][j].
TEST(TopologyDocument, QaplibInstanceBringsItsOwnPathCosts) {
  const std::filesystem::path file = std::filesystem::path(KS_SHARED_DATA_DIR) / "qaplib" / "chr12a.dat";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "no " << file;
  TopologyDocument doc(cpu_only());
  doc.open_traffic(file);
  ASSERT_EQ(doc.inputs()->configs.size(), 1u);
  EXPECT_EQ(doc.inputs()->qaplib_instance, "chr12a");
  doc.settings().placements = "identity";
  doc.run();
  doc.wait_idle();
  ASSERT_NE(doc.run_result(), nullptr) << doc.last_error();
  const TopologyInputs& in = *doc.run_result()->inputs;
  std::vector<int> identity(12);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(doc.selected_cost()->value, cost_of(in, 0, 0, identity));
  EXPECT_FALSE(doc.selected_network());  // path costs only
  test::TempDir dir;
  doc.export_json(dir / "q.json");
  const auto j = nlohmann::json::parse(read_text(dir / "q.json"));
  EXPECT_EQ(j["qaplib"]["instance"], "chr12a");
  EXPECT_EQ(j["metric"], "given");
  EXPECT_TRUE(j["selection"]["links"].is_null());
}

TEST(TopologyDocument, ExportsCsvAndJsonAtomically) {
  test::TempDir dir;
  TopologyDocument doc(cpu_only());
  EXPECT_THROW(doc.export_csv(dir / "none.csv"), Error);  // nothing to export yet
  EXPECT_FALSE(std::filesystem::exists(dir / "none.csv"));
  doc.open_sample();
  doc.wait_idle();
  ASSERT_NE(doc.run_result(), nullptr);
  const TopologyRun& run = *doc.run_result();
  doc.select(4, 2);

  {
    std::ofstream old(dir / "r.csv");
    old << "an older, longer file that must be replaced completely ......................................\n";
  }
  doc.export_csv(dir / "r.csv");
  const std::string csv = read_text(dir / "r.csv");
  std::istringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header, "slice,timestamp,configuration,count,min,max,mean,argmin,placement");
  int rows = 0;
  while (std::getline(lines, line)) ++rows;
  EXPECT_EQ(rows, run.problem->slices * run.problem->configs);
  EXPECT_EQ(csv.find("older"), std::string::npos);
  // The row of (timestamp 4, configuration 2) holds the heatmap's value.
  const std::string row_start =
      "4," + run.inputs->traffic.timestamps[4] + "," + run.inputs->configs[2].name + ",40320,";
  const auto at = csv.find(row_start);
  ASSERT_NE(at, std::string::npos) << row_start;
  EXPECT_EQ(std::stod(csv.substr(at + row_start.size())), doc.cost_grid().at(4, 2));

  doc.export_json(dir / "r.json");
  const auto j = nlohmann::json::parse(read_text(dir / "r.json"));
  const topo::BestPlacement best = topo::best_overall(run.result);
  EXPECT_EQ(j["best"]["cost"].get<double>(), best.cost.value);
  EXPECT_EQ(j["results"].size(), std::size_t(run.problem->slices * run.problem->configs));
  EXPECT_EQ(j["selection"]["timestamp"], run.inputs->traffic.timestamps[4]);
  EXPECT_EQ(j["selection"]["configuration"], run.inputs->configs[2].name);
  EXPECT_EQ(j["selection"]["cost"].get<double>(), doc.cost_grid().at(4, 2));
  double loads = 0;
  for (const auto& l : j["selection"]["links"]) loads += l["load"].get<double>();
  EXPECT_DOUBLE_EQ(loads, doc.cost_grid().at(4, 2));
  EXPECT_EQ(j["selection"]["placement"].size(), 8u);

  // A folder that does not exist: an Error, and nothing written anywhere.
  EXPECT_THROW(doc.export_json(dir / "missing" / "r.json"), Error);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 2u);  // r.csv and r.json, no temporary left behind
}

TEST(TopologyDocument, CancelStopsALongSweepAndKeepsWhatWasDone) {
  // No assumption about the machine's speed (it failed under AddressSanitizer, which is several times slower):
  // cancel once the first batch has been reported, and expect the sweep to stop within a few batches' time.
  TopologyDocument doc(cpu_only());
  doc.generate_traffic("gravity:n=12,t=2,seed=3");  // 12! x 3 slices: a minute on two cores
  doc.add_topology("ring");
  doc.run();
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  while (doc.job_status().fraction <= 0 && Clock::now() - start < std::chrono::seconds(120))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const double first_batch_s = std::chrono::duration<double>(Clock::now() - start).count();
  ASSERT_GT(doc.job_status().fraction, 0) << "no progress reported in 120 s";
  const auto cancelled_at = Clock::now();
  doc.cancel();
  doc.wait_idle();
  const double stopping_s = std::chrono::duration<double>(Clock::now() - cancelled_at).count();
  // A batch ends at most one batch after the cancel; the bound leaves room for a loaded machine.
  EXPECT_LT(stopping_s, 4 * first_batch_s + 2.0) << "the first batch took " << first_batch_s << " s";
  ASSERT_NE(doc.run_result(), nullptr) << doc.last_error();
  EXPECT_FALSE(doc.run_result()->result.complete);
  EXPECT_LT(doc.run_result()->result.placements, 479001600ull);
  bool said = false;
  for (const auto& n : doc.take_notices()) said = said || n.text.find("cancelled") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(TopologyDocument, ASweepOverTheTimeLimitStopsAndSaysWhatFits) {
  // The app's default limit is 10 minutes; 13! placements x 3 slices on two cores take far longer than 1 s.
  TopologyDocument doc(cpu_only());
  EXPECT_EQ(doc.settings().max_time_s, 600);
  doc.generate_traffic("gravity:n=13,t=2,seed=3");
  doc.add_topology("ring");
  doc.settings().max_time_s = 1;
  doc.run();
  doc.wait_idle();
  EXPECT_EQ(doc.run_result(), nullptr);
  EXPECT_NE(doc.last_error().find("more than the time limit of 1 s"), std::string::npos) << doc.last_error();
  EXPECT_NE(doc.last_error().find("--range 0:"), std::string::npos) << doc.last_error();
  doc.settings().max_time_s = -1;
  EXPECT_THROW(doc.run(), Error);
  doc.settings().max_time_s = 600;
  doc.settings().gpus = {7};
  doc.settings().backend = Backend::Cuda;  // switched off here anyway: refused before any GPU is asked for
  EXPECT_THROW(doc.run(), Error);
}

TEST(TopologyDocument, BadInputIsRefusedAndChangesNothing) {
  TopologyDocument doc(cpu_only());
  EXPECT_THROW(doc.run(), Error);                 // no traffic
  EXPECT_THROW(doc.add_topology("ring"), Error);  // nothing to fit it to
  doc.generate_traffic("uniform:n=8,t=2,seed=1");
  EXPECT_THROW(doc.run(), Error);  // no configuration
  doc.add_topology("ring");
  const auto before = doc.inputs();
  EXPECT_THROW(doc.add_topology("torus:3x3"), Error);  // 9 positions for 8 nodes
  EXPECT_THROW(doc.add_topology("nosuchfamily"), Error);
  EXPECT_THROW(doc.open_traffic("/no/such/traffic.csv"), Error);
  EXPECT_THROW(doc.set_metric("miles"), Error);
  EXPECT_EQ(doc.inputs(), before);
  doc.settings().placements = "sample:0";
  EXPECT_THROW(doc.run(), Error);
  doc.settings().placements = "sample:100";
  doc.settings().backend = Backend::Cuda;  // switched off in this document
  EXPECT_THROW(doc.run(), Error);
  doc.settings().backend = Backend::Cpu;
  EXPECT_NO_THROW(doc.run());
  doc.wait_idle();
  ASSERT_NE(doc.run_result(), nullptr);
  EXPECT_EQ(doc.run_result()->result.placements, 100u);

  // An unreadable file loaded in the background: an error notice, the inputs stay.
  doc.open_traffic_async("/no/such/traffic.csv");
  doc.wait_idle();
  EXPECT_EQ(doc.inputs(), before);
  EXPECT_NE(doc.last_error().find("traffic.csv"), std::string::npos);
}

TEST(TopologyDocument, NewTrafficKeepsTheTopologiesThatFit) {
  TopologyDocument doc(cpu_only());
  doc.generate_traffic("gravity:n=8,t=3,seed=1");
  doc.add_topology("ring");
  doc.add_topology("torus:4x2");
  doc.set_metric("weighted");  // the families' links have length 1
  EXPECT_EQ(doc.inputs()->configs.size(), 2u);
  doc.generate_traffic("uniform:n=6,t=2,seed=2");
  ASSERT_EQ(doc.inputs()->configs.size(), 1u);  // torus:4x2 does not fit 6 nodes
  EXPECT_EQ(doc.inputs()->configs[0].name, "ring");
  EXPECT_EQ(doc.inputs()->metric, "weighted");
  bool said = false;
  for (const auto& n : doc.take_notices()) said = said || n.text.find("torus:4x2") != std::string::npos;
  EXPECT_TRUE(said);
  doc.remove_topology(0);
  EXPECT_TRUE(doc.inputs()->configs.empty());
}

}  // namespace
}  // namespace ks::app
