// Parameter changes of a live simulation through the session (CPU backend): the running simulation takes them
// (Simulation::set_params on the worker), so the state, Gray-Scott's u included, the generation and the step
// times go on, also while playing; a backend or variant change still makes a new simulation from the state; a
// refused restart leaves the running simulation, and the next request is measured against what runs.
#include <gtest/gtest.h>

#include <thread>

#include "cpu/session_sim_support.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "session/session.hpp"
#include "support/sim_support.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

using namespace std::chrono_literals;
using test_sim::cpu_options;
using test_sim::host_frame;
using test_sim::start_paused;

std::string reported(const Session& s, const std::string& name) {
  if (!s.simulation().report()) return {};
  for (const auto& [n, v] : s.simulation().report()->params)
    if (n == name) return v;
  return {};
}

TEST(SessionSimParams, AGrayScottFeedChangeKeepsUAndVAndTheGeneration) {
  Session s(cpu_options());
  start_paused(s, "grayscott", 48, 40, {"F=0.0545", "k=0.062"});
  s.simulation().step(30);
  s.wait_idle();
  const Image v30 = host_frame(s);
  s.set_param("F", "0.03");
  s.run_now();
  EXPECT_EQ(s.simulation().generation(), 30);
  EXPECT_FALSE(s.simulation().carried_over());
  EXPECT_EQ(reported(s, "F"), "0.03");
  EXPECT_TRUE(test::images_match(host_frame(s), v30, 0)) << "the state shown is the state it had";
  s.simulation().step(20);
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 50);
  EXPECT_EQ(s.simulation().timing().recent_ms.size(), 50u) << "the step times go on too";

  // What the simulation API computes for 30 steps at F = 0.0545 and 20 more at F = 0.03.
  Engine engine(Engine::Options{1});
  SimulationRequest r =
      sim_test::sim_request("grayscott", {"F=0.0545", "k=0.062"}, Backend::Cpu, "cpu", 48, 40);
  Simulation reference(engine, r);
  reference.step(30);
  ParamSet changed = reference.params();
  changed.set("F", "0.03");
  ASSERT_TRUE(reference.set_params(changed).applied);
  reference.step(20);
  EXPECT_TRUE(test::images_match(host_frame(s), reference.image()));
  // Carrying the state over as an image (v kept, u restarted as 1 - 2 v), as a new simulation would, gives
  // another field: the test tells the two apart.
  Image v4 = v30;
  for (float& x : v4.elements<float>()) x *= 4;  // the image start takes v = luminance / 4
  r.params = changed;
  Simulation carried(engine, r, SimulationStart{.image = v4});
  carried.step(20);
  EXPECT_FALSE(test::images_match(carried.image(), reference.image(), 1e-3));
}

TEST(SessionSimParams, ARuleChangeWhilePlayingKeepsCounting) {
  Session s(cpu_options());
  start_paused(s, "life", 64, 64, {"density=0.3"});
  s.simulation().set_steps_per_frame(2);
  s.simulation().set_playing(true);
  auto poll_until = [&](auto done) {
    const auto until = std::chrono::steady_clock::now() + 10s;
    long long last = s.simulation().generation();
    while (!done() && std::chrono::steady_clock::now() < until) {
      s.poll();
      EXPECT_GE(s.simulation().generation(), last) << "the generation never goes back";
      last = s.simulation().generation();
      std::this_thread::sleep_for(1ms);
    }
    return done();
  };
  ASSERT_TRUE(poll_until([&] { return s.simulation().generation() >= 6; }));
  const long long before = s.simulation().generation();
  s.set_param("rule", "B36/S23");
  ASSERT_TRUE(poll_until(
      [&] { return reported(s, "rule") == "B36/S23" && s.simulation().generation() >= before + 6; }));
  EXPECT_TRUE(s.simulation().playing());
  EXPECT_FALSE(s.simulation().carried_over());
  EXPECT_FALSE(s.simulation().error());
  s.simulation().set_playing(false);
  s.wait_idle();

  // Another variant is another simulation: made from the state shown, the generation goes on.
  const long long paused_at = s.simulation().generation();
  const Image shown = host_frame(s);
  s.set_variant("cpu_bitpacked");
  s.run_now();
  EXPECT_TRUE(s.simulation().carried_over());
  EXPECT_EQ(s.simulation().report()->variant, "cpu_bitpacked");
  EXPECT_EQ(s.simulation().generation(), paused_at);
  EXPECT_TRUE(test::images_match(host_frame(s), shown, 0));
  EXPECT_EQ(reported(s, "rule"), "B36/S23");
}

TEST(SessionSimParams, ARefusedRestartLeavesTheRunningSimulationAndTheNextRequestStartsAfresh) {
  Session s(cpu_options());
  start_paused(s, "life", 30, 30);
  s.simulation().step(2);
  s.wait_idle();
  // A heat simulation with dt beyond the stability limit (bypassing the panel's check): refused, Life runs
  // on.
  ParamSet heat = KernelRegistry::builtin().get("heat").default_params();
  heat.set("dt", "0.5");
  s.simulation().configure("heat", heat, Backend::Cpu, "", std::nullopt, nullptr);
  s.wait_idle();
  ASSERT_TRUE(s.simulation().error());
  EXPECT_EQ(s.simulation().report()->kernel, "life");
  EXPECT_EQ(s.simulation().generation(), 2);
  // A good heat request differs from the refused one only in dt, but the simulation that runs is Life's: a
  // fresh heat simulation, not Life taking heat's parameters.
  heat.set("dt", "0.1");
  s.simulation().configure("heat", heat, Backend::Cpu, "", std::nullopt, nullptr);
  s.wait_idle();
  EXPECT_FALSE(s.simulation().error());
  EXPECT_EQ(s.simulation().report()->kernel, "heat");
  EXPECT_EQ(s.simulation().generation(), 0);
  EXPECT_EQ(host_frame(s).type(), ElemType::F32);
  EXPECT_EQ(reported(s, "dt"), "0.1");
}

}  // namespace
}  // namespace ks::app
