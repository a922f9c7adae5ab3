// The "Why" explainer on real reports of the CPU backend (a stencil run, a lab run, a simulation): it works
// on what they have — no launch, no counters — and every report JSON carries "why" and "first_launch_ms".
#include <gtest/gtest.h>

#include <set>

#include "engine/engine.hpp"
#include "lab/lab.hpp"
#include "registry/registry.hpp"
#include "report/lab_report_json.hpp"
#include "report/report_json.hpp"
#include "report/sim_report.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"
#include "sim/simulation.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

// What a CPU run can show: its timings and its roofline. Never a launch or a counter finding.
const std::set<std::string> kCpuIds = {"first-launch", "memory-far-below-copy", "compute-far-below-peak"};

void expect_why_array(const nlohmann::ordered_json& j) {
  ASSERT_TRUE(j.contains("why"));
  ASSERT_TRUE(j.at("why").is_array());
  for (const auto& f : j.at("why")) {
    EXPECT_TRUE(kCpuIds.count(f.at("id").get<std::string>())) << f.dump();
    EXPECT_FALSE(f.at("finding").get<std::string>().empty());
    EXPECT_FALSE(f.at("fix").get<std::string>().empty());
  }
}

TEST(WhyReports, ACpuStencilRunOfAnOddImage) {
  Engine engine(Engine::Options{2});
  StencilRequest req;
  req.kernel = "box";
  req.params = KernelRegistry::builtin().get("box").default_params();
  req.repeat = 3;
  req.warmup = 1;
  const StencilResult res = engine.run_stencil(test::random_image(1023, 7, 1, ElemType::U8, 3), req);
  ASSERT_TRUE(res.report.first_launch_ms.has_value()) << "the warm-up launch is timed";
  EXPECT_GT(*res.report.first_launch_ms, 0);
  for (const auto& f : report::explain_why(res.report)) EXPECT_TRUE(kCpuIds.count(f.id)) << f.id;
  const nlohmann::ordered_json j = to_json(res.report);
  EXPECT_EQ(j.at("first_launch_ms").get<double>(), *res.report.first_launch_ms);
  expect_why_array(j);
  // The paragraph says the counters were not read rather than staying silent about them.
  EXPECT_NE(report::why_paragraph(report::explain_why(res.report), false).find("no hardware counters"),
            std::string::npos);

  req.warmup = 0;
  const StencilResult cold = engine.run_stencil(test::random_image(31, 17, 1, ElemType::U8, 4), req);
  EXPECT_FALSE(cold.report.first_launch_ms.has_value());
  EXPECT_TRUE(to_json(cold.report).at("first_launch_ms").is_null());
}

TEST(WhyReports, ACpuLabRun) {
  Engine engine(Engine::Options{2});
  lab::LabRequest req;
  req.kernel = "reduce";
  req.params = KernelRegistry::builtin().get("reduce").default_params();
  req.size = lab::LabSize::elements(100003);
  req.repeat = 2;
  req.warmup = 1;
  const lab::LabResult res = lab::run_lab(engine, req);
  ASSERT_TRUE(res.report.first_launch_ms.has_value());
  const nlohmann::ordered_json j = to_json(res.report);
  EXPECT_EQ(j.at("first_launch_ms").get<double>(), *res.report.first_launch_ms);
  expect_why_array(j);
}

TEST(WhyReports, ACpuSimulation) {
  Engine engine(Engine::Options{2});
  SimulationRequest req;
  req.kernel = "heat";
  req.params = KernelRegistry::builtin().get("heat").default_params();
  req.backend = Backend::Cpu;
  req.width = 67;
  req.height = 13;
  Simulation sim(engine, req);
  EXPECT_FALSE(sim.report().first_launch_ms.has_value()) << "no step yet";
  sim.step(5);
  const SimulationReport first = sim.report();
  ASSERT_TRUE(first.first_launch_ms.has_value());
  sim.clear_timings();
  sim.step(3);
  EXPECT_EQ(sim.report().first_launch_ms, first.first_launch_ms) << "the first step stays the first";
  const nlohmann::ordered_json j = to_json(sim.report(), sim.stats());
  expect_why_array(j);
  EXPECT_EQ(j.at("first_launch_ms").get<double>(), *first.first_launch_ms);
}

TEST(WhyReports, TheJsonShapeOfAFinding) {
  const nlohmann::ordered_json j =
      report::why_json({{"tail-effect", "The grid has 32 blocks.", "--block 32x2"}});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0].dump(), R"({"id":"tail-effect","finding":"The grid has 32 blocks.","fix":"--block 32x2"})");
}

}  // namespace
}  // namespace ks
