// The proof across ranks with real GPUs (topo/bnb/bnb_ranks.hpp, make_cuda_node_evaluator), the ranks in one
// process (support/loopback_proof.hpp): rank 0 and rank 1 each feed a GPU (GPU 1 for rank 1 where there are two,
// else both share GPU 0 with a context and stream each) beside a diving thread, and the proof is the CPU dive's
// of one process: the same nodes and bounds, QAPLIB's optimum. Then one process feeding two GPUs (--gpus 0,1),
// where there are two.
#include <gtest/gtest.h>

#include <memory>

#include "core/cuda_context.hpp"
#include "core/device_info.hpp"
#include "core/thread_pool.hpp"
#include "support/loopback_proof.hpp"
#include "support/qaplib_optima.hpp"
#include "support/shared_data.hpp"
#include "support/test_support.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/bound_batch_cuda.hpp"

namespace ks::topo {
namespace {

using test::data;
using test::qaplib_problem;

ThreadPool& two_threads(int rank) {  // a feeding thread and a diver
  static ThreadPool pools[2] = {ThreadPool(2), ThreadPool(2)};
  return pools[rank];
}

void expect_proof_of_one_process(const BnbResult& one, const BnbResult& other, const std::string& name) {
  EXPECT_TRUE(other.best().proof.optimal) << name;
  EXPECT_EQ(other.best().best.scaled, one.best().best.scaled) << name;
  EXPECT_EQ(other.best().proof.nodes, one.best().proof.nodes) << name;
  EXPECT_EQ(other.best().proof.root_bound.scaled, one.best().proof.root_bound.scaled) << name;
  EXPECT_EQ(other.best().proof.best_bound.scaled, one.best().proof.best_bound.scaled) << name;
}

TEST(BnbRanksCuda, TwoRanksFeedingGpusProveWhatOneProcessProves) {
  KS_REQUIRE_GPU();
  const int second = list_devices().size() > 1 ? 1 : 0;
  const auto gpu0 = CudaContext::create(0);
  const auto gpu1 = CudaContext::create(second);
  for (const auto& [file, optimum] : {std::pair{"qaplib/nug12.dat", 578}, std::pair{"qaplib/chr15a.dat", 9896}}) {
    KS_REQUIRE_DATA(data(file));
    const Problem p = qaplib_problem(data(file));
    const BnbResult one = prove(p, {}, {}, two_threads(0));
    const auto on_rank_0 = make_cuda_node_evaluator(*gpu0);
    const auto on_rank_1 = make_cuda_node_evaluator(*gpu1);
    BnbRequest r;
    r.evaluators = {on_rank_0.get()};
    test::ServedRank rank1;
    rank1.request.evaluators = {on_rank_1.get()};
    rank1.pool = &two_threads(1);
    const test::RankRun two = test::prove_on_loopback_ranks(p, r, two_threads(0), {rank1});
    expect_proof_of_one_process(one, two.result, file);
    EXPECT_EQ(two.result.best().best.scaled, optimum) << file;
    EXPECT_EQ(two.codes[1], 0) << file;
  }
}

TEST(BnbRanksCuda, OneProcessFeedingTwoGpusProvesWhatTheCpuProves) {
  KS_REQUIRE_GPU();
  if (list_devices().size() < 2) GTEST_SKIP() << "one CUDA device: --gpus 0,1 needs two";
  KS_REQUIRE_DATA(data("qaplib/chr15a.dat"));
  const Problem p = qaplib_problem(data("qaplib/chr15a.dat"));
  static ThreadPool three(3);  // two feeding threads and a diver
  const BnbResult one = prove(p, {}, {}, three);
  const auto gpu0 = CudaContext::create(0);
  const auto gpu1 = CudaContext::create(1);
  const auto a = make_cuda_node_evaluator(*gpu0);
  const auto b = make_cuda_node_evaluator(*gpu1);
  BnbRequest r;
  r.evaluators = {a.get(), b.get()};
  const BnbResult two = prove(p, r, {}, three);
  expect_proof_of_one_process(one, two, "chr15a on GPUs 0 and 1");
  EXPECT_EQ(two.best().best.scaled, 9896);
}

}  // namespace
}  // namespace ks::topo
