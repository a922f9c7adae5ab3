// Knuth's random-probe estimate of a proof's tree (topo/bnb/tree_estimate.hpp) against the proof itself: the
// nodes the CPU dive explores on QAPLIB instances whose proofs take well under a second, with and without
// reduced-cost pruning; the same estimate on pools of 1 and 3 threads (each probe seeded by its number); the
// standard error shrinking with more probes; the problems a proof refuses refused alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/shared_pool.hpp"
#include "support/test_support.hpp"
#include "topo/bnb/bnb.hpp"

namespace ks::topo {
namespace {

using test::data;
using test::qaplib_problem;

// The estimate is unbiased and counts as the proof counts: with 20 000 probes it lands within four standard
// errors of the proof's nodes (or 1% of them, where the standard error is tiny).
TEST(TreeEstimate, ComesNearTheNodesTheProofExplores) {
  for (const char* file : {"qaplib/nug12.dat", "qaplib/chr12a.dat", "qaplib/scr12.dat"})
    for (bool pruning : {true, false}) {
      KS_REQUIRE_DATA(data(file));
      const Problem p = qaplib_problem(data(file));
      BnbRequest r;
      r.reduced_cost_pruning = pruning;
      const BnbResult proof = prove(p, r, {}, test::pool<2>());
      ASSERT_TRUE(proof.best().proof.optimal) << file;
      const BnbEstimate e = estimate_proof(p, r, 20000, test::pool<2>());
      ASSERT_EQ(e.configurations.size(), 1u);
      EXPECT_EQ(e.configurations[0].incumbent.scaled, proof.best().best.scaled) << file;
      const TreeEstimate& t = e.configurations[0].tree;
      const double nodes = double(proof.best().proof.nodes);
      EXPECT_NEAR(t.nodes, nodes, std::max(4 * t.standard_error, 0.01 * nodes))
          << file << (pruning ? "" : " without reduced-cost pruning") << ", standard error " << t.standard_error;
      EXPECT_EQ(t.probes, 20000);
    }
}

TEST(TreeEstimate, IsTheSameOnAnyPoolAndTightensWithMoreProbes) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug12.dat"));
  const BnbEstimate one = estimate_proof(p, {}, 2000, test::pool<1>());
  const BnbEstimate three = estimate_proof(p, {}, 2000, test::pool<3>());
  EXPECT_EQ(one.configurations[0].tree.nodes, three.configurations[0].tree.nodes);
  EXPECT_EQ(one.configurations[0].tree.standard_error, three.configurations[0].tree.standard_error);
  const BnbEstimate more = estimate_proof(p, {}, 32000, test::pool<2>());
  // 16 times the probes: a quarter of the standard error, give or take the spread's own estimate.
  EXPECT_LT(more.configurations[0].tree.standard_error, 0.5 * one.configurations[0].tree.standard_error);
}

TEST(TreeEstimate, RefusesWhatAProofRefuses) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  Problem p = qaplib_problem(data("qaplib/nug12.dat"));
  p.exact = false;
  p.real_reason = "a test";
  EXPECT_NE(test::usage_error([&] { estimate_proof(p, {}, 10, test::pool<1>()); }).find("exact costs only"),
            std::string::npos);
}

}  // namespace
}  // namespace ks::topo
