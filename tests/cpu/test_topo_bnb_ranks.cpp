// The proof across ranks (topo/bnb/bnb_ranks.hpp) without MPI: rank 0's prove() and the other ranks'
// serve_proof on threads, linked by in-memory mailboxes (support/loopback_ranks.hpp). With the tabu search's
// optimal incumbent the ranks explore the tree of one process; with a poor incumbent (a search of one
// iteration) the better placements found on any rank reach rank 0 and the proof still ends at QAPLIB's optimum;
// a rank of another problem, or one that cannot start, ends the run with an error naming it, and no rank is
// left waiting. Ranks with GPUs (CPU evaluators standing in for them, support/counting_evaluator.hpp) feed them
// the subtrees they are handed and explore the same tree; a device lost on a rank ends the run naming the rank.
// The optima come from QAPLIB; node counts from one process on the CPU dive.
#include <gtest/gtest.h>

#include <thread>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "support/counting_evaluator.hpp"
#include "support/loopback_proof.hpp"
#include "support/loopback_ranks.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/test_support.hpp"
#include "support/topo_instances.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/bnb_ranks.hpp"

namespace ks::topo {
namespace {

using test::CountingEvaluator;
using test::data;
using test::qaplib_problem;

ThreadPool& pool(int rank) {
  static ThreadPool pools[3] = {ThreadPool(1), ThreadPool(1), ThreadPool(1)};
  return pools[rank];
}

// A rank's pool with room for a feeding thread and a diver.
ThreadPool& two_threads(int rank) {
  static ThreadPool pools[3] = {ThreadPool(2), ThreadPool(2), ThreadPool(2)};
  return pools[rank];
}

// prove() on rank 0 of `count` loopback ranks, serve_proof on the others on pool(k) (`other` for the last one
// when given; served[k] for rank k's devices and pool when given).
using test::RankRun;
using test::ServedRank;
RankRun prove_on_ranks(const Problem& p, const BnbRequest& r, int count, const Problem* other = nullptr,
                       const std::vector<ServedRank>& served = {}) {
  std::vector<ServedRank> others;
  for (int k = 1; k < count; ++k) {
    ServedRank s = std::size_t(k) < served.size() ? served[std::size_t(k)] : ServedRank{};
    if (other && k == count - 1) s.problem = other;
    if (!s.pool) s.pool = &pool(k);
    others.push_back(s);
  }
  return test::prove_on_loopback_ranks(p, r, pool(0), others);
}

// The ranks' proof is the one process's: optimal at QAPLIB's optimum, the same nodes and bounds.
void expect_proof_of_one_process(const ConfigurationProof& one, const ConfigurationProof& ranks, std::int64_t optimum) {
  EXPECT_TRUE(ranks.proof.optimal);
  EXPECT_EQ(ranks.best.scaled, optimum);
  EXPECT_EQ(ranks.proof.nodes, one.proof.nodes);
  EXPECT_EQ(ranks.proof.root_bound.scaled, one.proof.root_bound.scaled);
  EXPECT_EQ(ranks.proof.best_bound.scaled, one.proof.best_bound.scaled);
}

TEST(BnbRanks, ThreeRanksExploreTheTreeOfOneProcess) {
  KS_REQUIRE_DATA(data("qaplib/nug14.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug14.dat"));
  const BnbResult one = prove(p, {}, {}, pool(0));
  const RankRun three = prove_on_ranks(p, {}, 3);
  expect_proof_of_one_process(one.best(), three.result.best(), 1014);
  EXPECT_NE(three.result.device.find("on 3 MPI ranks"), std::string::npos) << three.result.device;
  // The rate counts every rank's nodes (all but the frontier's, which rank 0 built before the session's clock).
  const ConfigurationProof& proof = three.result.best();
  EXPECT_NEAR(three.result.nodes_per_second * three.result.seconds, double(proof.proof.nodes - proof.subtrees), 1.0);
  EXPECT_EQ(three.codes[1], 0);
  EXPECT_EQ(three.codes[2], 0);
}

// Several configurations and timestamps, an odd size: each configuration's proof is handed out in turn.
TEST(BnbRanks, EveryConfigurationOnRanksAsInOneProcess) {
  const Problem p = make_problem(test::random_traffic(9, 2, 9u, true, 40),
                                 {test::random_costs(9, 3), test::random_costs(9, 4, true, true)});
  const BnbResult one = prove(p, {}, {}, pool(0));
  const RankRun three = prove_on_ranks(p, {}, 3);
  ASSERT_EQ(three.result.configurations.size(), one.configurations.size());
  for (std::size_t c = 0; c < one.configurations.size(); ++c) {
    const ConfigurationProof& a = one.configurations[c];
    const ConfigurationProof& b = three.result.configurations[c];
    EXPECT_TRUE(b.proof.optimal) << c;
    EXPECT_EQ(b.best.scaled, a.best.scaled) << c;
    EXPECT_EQ(b.proof.nodes, a.proof.nodes) << c;
  }
}

// A search of one iteration leaves a poor incumbent: the ranks find better placements as they go, and the
// proof ends at the optimum whichever rank found it.
TEST(BnbRanks, BetterPlacementsFoundOnAnyRankReachTheProof) {
  for (const auto& [file, optimum] : {std::pair{"qaplib/nug12.dat", 578}, std::pair{"qaplib/chr15a.dat", 9896}}) {
    KS_REQUIRE_DATA(data(file));
    const Problem p = qaplib_problem(data(file));
    BnbRequest poor;
    poor.search_iterations = 1;
    const RankRun three = prove_on_ranks(p, poor, 3);
    const ConfigurationProof& c = three.result.best();
    EXPECT_GT(c.search_best.scaled, optimum) << file << ": the search was not poor, nothing is tested";
    EXPECT_TRUE(c.proof.optimal) << file;
    EXPECT_EQ(c.best.scaled, optimum) << file;
    EXPECT_EQ(placement_cost(p, 0, 0, c.placement).scaled, optimum) << file;
  }
}

TEST(BnbRanks, ARankOfAnotherProblemEndsTheRunNamingIt) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug12.dat"));
  const Problem other = qaplib_problem(data("qaplib/chr12a.dat"));
  try {
    prove_on_ranks(p, {}, 3, &other);
    ADD_FAILURE() << "a rank of another problem was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("rank 2"), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("another problem"), std::string::npos) << e.full_message();
  }
}

TEST(BnbRanks, ARankThatCannotStartEndsTheRunWithItsReason) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug12.dat"));
  test::LoopbackRanks hub(2);
  int code = -1;
  std::thread rank1([&] { code = refuse_proof(hub.link(1), "rank 1 on elsewhere: no such file nug12.dat"); });
  {
    ProofRanks ranks(hub.link(0));
    BnbRequest r;
    r.ranks = &ranks;
    try {
      prove(p, r, {}, pool(0));
      ADD_FAILURE() << "the failed rank was not reported";
    } catch (const Error& e) {
      EXPECT_NE(e.full_message().find("no such file nug12.dat"), std::string::npos) << e.full_message();
    }
  }
  rank1.join();
  EXPECT_EQ(code, 1);
}

// Every rank feeds a GPU (rank 0 and rank 2 with no diver beside it, rank 1 with one): the tree of one process on
// the CPU dive, each device bounded part of it, and rank 0 names every rank's devices. Then with a poor
// incumbent: the better placements the devices find on any rank reach the proof.
TEST(BnbRanks, RanksFeedingGpusExploreTheTreeOfOneProcess) {
  KS_REQUIRE_DATA(data("qaplib/nug14.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug14.dat"));
  const BnbResult one = prove(p, {}, {}, pool(0));
  CountingEvaluator a("GPU A"), b("GPU B"), c("GPU C");
  BnbRequest on_rank_0;
  on_rank_0.evaluators = {&a};
  std::vector<ServedRank> served(3);
  served[1].request.evaluators = {&b};
  served[1].pool = &two_threads(1);
  served[2].request.evaluators = {&c};
  const RankRun three = prove_on_ranks(p, on_rank_0, 3, nullptr, served);
  expect_proof_of_one_process(one.best(), three.result.best(), 1014);
  EXPECT_GT(a.nodes(), 0u);
  EXPECT_GT(b.nodes(), 0u);
  EXPECT_GT(c.nodes(), 0u);
  EXPECT_EQ(three.codes[1], 0);
  EXPECT_EQ(three.codes[2], 0);
  std::string notes;
  for (const std::string& n : three.result.notes) notes += n + "\n";
  EXPECT_NE(notes.find("rank 1, CPU (2 threads) + GPU B (batches)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("rank 2, CPU (1 threads) + GPU C (batches)"), std::string::npos) << notes;

  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const Problem small = qaplib_problem(data("qaplib/nug12.dat"));
  BnbRequest poor = on_rank_0;
  poor.search_iterations = 1;
  const RankRun found = prove_on_ranks(small, poor, 3, nullptr, served);
  const ConfigurationProof& z = found.result.best();
  EXPECT_GT(z.search_best.scaled, 578) << "the search was not poor, nothing is tested";
  EXPECT_TRUE(z.proof.optimal);
  EXPECT_EQ(z.best.scaled, 578);
  EXPECT_EQ(placement_cost(small, 0, 0, z.placement).scaled, 578);
}

// A rank given more devices than threads says so before its Hello (the CLI sends it to rank 0 as its reason).
TEST(BnbRanks, ARankWithMoreDevicesThanThreadsIsRefused) {
  KS_REQUIRE_DATA(data("qaplib/nug12.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug12.dat"));
  test::LoopbackRanks hub(2);
  CountingEvaluator a("GPU A"), b("GPU B");
  BnbRequest r;
  r.evaluators = {&a, &b};
  try {
    serve_proof(p, r, pool(1), hub.link(1), "rank 1");
    ADD_FAILURE() << "two devices on one thread were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("--threads 2"), std::string::npos) << e.full_message();
  }
  int from = 0;
  std::vector<std::uint8_t> bytes;
  EXPECT_FALSE(hub.link(0).poll(from, bytes)) << "the refused rank said hello";
}

// The GPU of rank 2 is lost on its second batch: the run ends with its error, naming the rank, and no rank is
// left waiting.
TEST(BnbRanks, AGpuLostOnARankEndsTheRunNamingTheRank) {
  KS_REQUIRE_DATA(data("qaplib/nug15.dat"));
  const Problem p = qaplib_problem(data("qaplib/nug15.dat"));
  CountingEvaluator lost("GPU C", 2);
  std::vector<ServedRank> served(3);
  served[2].request.evaluators = {&lost};
  try {
    prove_on_ranks(p, {}, 3, nullptr, served);
    ADD_FAILURE() << "the lost GPU was not reported";
  } catch (const Error& e) {
    EXPECT_NE(e.full_message().find("rank 2"), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("GPU C was lost"), std::string::npos) << e.full_message();
  }
  EXPECT_EQ(lost.calls(), 2);
}

}  // namespace
}  // namespace ks::topo
