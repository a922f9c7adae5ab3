// Sweeps beyond one worker, on the CPU: several workers in one process, ranks over a link (threads standing in for
// MPI), checkpoints and resumes, a failing worker, damaged or foreign checkpoints, the estimate against a time
// limit, and the index arithmetic of n = 16. Every distributed result is compared with one worker's, bit for bit.
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <fstream>
#include <thread>

#include "core/error.hpp"
#include "support/loopback_ranks.hpp"
#include "support/topo_compare.hpp"
#include "support/test_support.hpp"
#include "support/topo_instances.hpp"
#include "support/topo_sweep_runs.hpp"
#include "topo/evaluation.hpp"
#include "topo/permutation.hpp"
#include "topo/sweep/checkpoint.hpp"
#include "topo/sweep/rank_link.hpp"
#include "topo/sweep/sweep_backend.hpp"
#include "topo/sweep/sweep_messages.hpp"
#include "topo/sweep/sweep_plan.hpp"
#include "topo/sweep/sweep_worker.hpp"

namespace ks::topo {
namespace {

using test::expect_identical;
using test::nth_placement;
using test::on_workers;
using test::one_thread_pool;
using test::stop_and_resume;

Problem random_problem(int n, int timestamps, int configs, std::uint32_t seed, bool integer,
                       std::int64_t max_traffic = 1000) {
  std::vector<Configuration> cs;
  for (int c = 0; c < configs; ++c) cs.push_back(test::random_costs(n, seed * 13 + std::uint32_t(c), integer));
  return make_problem(test::random_traffic(n, timestamps, seed, integer, max_traffic), cs);
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_text(const std::filesystem::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

struct Case {
  const char* name;
  int n, timestamps, configs;
  bool integer;
  std::int64_t max_traffic;
  PlacementMode mode;
};

// Ranges that do not divide evenly, chunks of odd sizes, ties (traffic of 0 and 1: many equal costs, so the top
// list and the argmin depend on the tie-break alone), real-valued sums, samples and given placements.
const Case kCases[] = {
    {"exact_n7", 7, 2, 2, true, 1000, PlacementMode::All},
    {"real_n8", 8, 2, 2, false, 1000, PlacementMode::All},
    {"ties_n6", 6, 1, 3, true, 1, PlacementMode::All},
    {"real_samples_n11", 11, 3, 1, false, 1000, PlacementMode::Sample},
    {"given_n9", 9, 1, 2, true, 100, PlacementMode::Given},
};

EvalRequest request_for(const Problem& p, const Case& c) {
  EvalRequest r;
  r.mode = c.mode;
  r.top_k = 17;
  if (c.mode == PlacementMode::All) {
    r.range_begin = 17;
    r.range_end = factorial(c.n) - 5;
  } else if (c.mode == PlacementMode::Sample) {
    r.samples = 30011;
    r.seed = 5;
  } else {
    for (std::uint64_t i = 0; i < 301; ++i) r.placements.push_back(placement_of_index(i * 1201 % factorial(c.n), c.n));
  }
  r.batch_evaluations = 97 * p.pairs();  // uneven chunks, and many of them
  return r;
}

class ScaleCases : public ::testing::TestWithParam<Case> {};

TEST_P(ScaleCases, SeveralWorkersGiveTheBitsOfOne) {
  const Case c = GetParam();
  const Problem p = random_problem(c.n, c.timestamps, c.configs, 40 + std::uint32_t(c.n), c.integer, c.max_traffic);
  const EvalRequest r = request_for(p, c);
  const EvalResult one = on_workers(p, r, 1);
  ASSERT_TRUE(one.complete);
  const EvalResult three = on_workers(p, r, 3);
  expect_identical(three, one);
  ASSERT_EQ(three.timing.workers.size(), 3u);
  std::uint64_t chunks = 0;
  for (const auto& w : three.timing.workers) chunks += w.chunks;
  EXPECT_GE(chunks, 4u);
}

TEST_P(ScaleCases, RanksOverALinkGiveTheBitsOfOne) {
  const Case c = GetParam();
  const Problem p = random_problem(c.n, c.timestamps, c.configs, 40 + std::uint32_t(c.n), c.integer, c.max_traffic);
  const EvalRequest r = request_for(p, c);
  const EvalResult one = on_workers(p, r, 1);
  test::LoopbackRanks ranks(3);
  std::vector<std::thread> others;
  std::vector<int> codes(3, -1);
  for (int k = 1; k < 3; ++k)
    others.emplace_back([&, k] { codes[std::size_t(k)] = serve_sweep(p, r, one_thread_pool(k), nullptr, ranks.link(k), "rank " + std::to_string(k)); });
  RankRoster roster(ranks.link(0));
  SweepSetup setup;
  setup.ranks = &roster;
  const EvalResult all = on_workers(p, r, 1, setup);
  for (auto& t : others) t.join();
  expect_identical(all, one);
  EXPECT_EQ(all.timing.ranks, 3);
  EXPECT_EQ(codes[1], 0);
  EXPECT_EQ(codes[2], 0);
}

INSTANTIATE_TEST_SUITE_P(Sweeps, ScaleCases, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(TopoScale, MoreRanksThanWorkSaySoAndStillAgree) {
  const Problem p = random_problem(7, 1, 1, 3, true);
  EvalRequest r;
  r.mode = PlacementMode::Given;
  r.placements = {placement_of_index(100, 7)};
  const EvalResult one = on_workers(p, r, 1);
  test::LoopbackRanks ranks(3);
  std::vector<std::thread> others;
  for (int k = 1; k < 3; ++k)
    others.emplace_back([&, k] { serve_sweep(p, r, one_thread_pool(k), nullptr, ranks.link(k), "rank " + std::to_string(k)); });
  RankRoster roster(ranks.link(0));
  SweepSetup setup;
  setup.ranks = &roster;
  std::string notes;
  setup.note = [&](const std::string& t) { notes += t + "\n"; };
  const EvalResult all = on_workers(p, r, 1, setup);
  for (auto& t : others) t.join();
  expect_identical(all, one);
  EXPECT_NE(notes.find("3 workers share 1 chunk of work: 2 of them have nothing to do"), std::string::npos) << notes;
}

TEST(TopoScale, ARankWithOtherInputsStopsTheSweepAndSaysWhy) {
  const Problem p = random_problem(7, 1, 1, 3, true);
  const Problem other = random_problem(7, 1, 1, 4, true);  // same shape, other values (another file on that host)
  EvalRequest r;
  test::LoopbackRanks ranks(2);
  std::thread rank1([&] { serve_sweep(other, r, one_thread_pool(1), nullptr, ranks.link(1), "rank 1 on elsewhere"); });
  RankRoster roster(ranks.link(0));
  SweepSetup setup;
  setup.ranks = &roster;
  const EvalResult res = on_workers(p, r, 1, setup);
  rank1.join();
  EXPECT_TRUE(res.failed);
  EXPECT_FALSE(res.complete);
  EXPECT_NE(res.stopped.find("rank 1 on elsewhere"), std::string::npos) << res.stopped;
  EXPECT_NE(res.stopped.find("other inputs"), std::string::npos) << res.stopped;
}

TEST(TopoScale, AResumedSweepEndsWithTheBitsOfAnUninterruptedOne) {
  test::TempDir dir;
  for (bool integer : {true, false}) {
    SCOPED_TRACE(integer ? "exact" : "real");
    const Problem p = random_problem(8, 2, 2, 77, integer);
    EvalRequest r;
    r.top_k = 9;
    r.range_begin = 33;
    r.batch_evaluations = 600 * p.pairs();
    const EvalResult whole = on_workers(p, r, 1);
    for (const char* pass : {"sweep", "histogram", "top"})
      for (bool abort : {false, true}) {
        SCOPED_TRACE(::testing::Message() << pass << (abort ? " aborted" : " cancelled"));
        expect_identical(stop_and_resume(p, r, pass, 3, abort, dir / "c.checkpoint"), whole);
      }
  }
}

// A backend that fails on its `fail_at`-th chunk, as a GPU that falls off the bus would.
class FailingBackend final : public SweepBackend {
 public:
  FailingBackend(std::unique_ptr<SweepBackend> inner, int fail_at) : inner_(std::move(inner)), fail_at_(fail_at) {}
  double run(Pass pass, const PlacementSource& s, std::uint64_t a, std::uint64_t b, PassIo& io) override {
    if (++runs_ == fail_at_) throw Error(ErrorKind::Device, "the GPU fell off the bus (injected)");
    return inner_->run(pass, s, a, b, io);
  }
  std::string device() const override { return inner_->device(); }
  std::uint64_t default_batch_evaluations() const override { return inner_->default_batch_evaluations(); }

 private:
  std::unique_ptr<SweepBackend> inner_;
  int fail_at_, runs_ = 0;
};

TEST(TopoScale, AFailedWorkerLosesItsChunkKeepsTheRestAndTheResumeMendsIt) {
  test::TempDir dir;
  const Problem p = random_problem(8, 1, 2, 91, false);
  EvalRequest r;
  r.top_k = 5;
  r.batch_evaluations = 500 * p.pairs();
  const EvalResult whole = on_workers(p, r, 1);
  SweepSetup setup;
  setup.checkpoint_on_stop = (dir / "kept.checkpoint").string();
  setup.wrap_backend = [](int worker, std::unique_ptr<SweepBackend> b) -> std::unique_ptr<SweepBackend> {
    if (worker == 1) return std::make_unique<FailingBackend>(std::move(b), 4);
    return b;
  };
  const EvalResult failed = on_workers(p, r, 2, setup);
  EXPECT_TRUE(failed.failed);
  EXPECT_FALSE(failed.complete);
  EXPECT_NE(failed.stopped.find("fell off the bus"), std::string::npos) << failed.stopped;
  ASSERT_EQ(failed.lost.size(), 1u);
  EXPECT_NE(failed.lost[0].find("sweep pass chunk"), std::string::npos) << failed.lost[0];
  EXPECT_EQ(failed.checkpoint, setup.checkpoint_on_stop);
  EXPECT_GT(failed.placements, 0u);
  EXPECT_LT(failed.placements, factorial(8));
  bool marked = false;
  for (const auto& w : failed.timing.workers) marked = marked || w.failed;
  EXPECT_TRUE(marked);
  SweepSetup again;
  again.resume = setup.checkpoint_on_stop;
  expect_identical(on_workers(p, r, 2, again), whole);
}

// Another rank written out by hand, to see the protocol from its side: rank 0 sends it its next chunk before the
// current one is reported (the round trip to rank 0 stays off the rank's time), and when the rank fails with two
// chunks in hand, both are lost, the checkpoint keeps the rest, and its resume gives the bits of a whole sweep.
TEST(TopoScale, ARankGetsItsNextChunkAheadAndLosesBothWhenItFails) {
  test::TempDir dir;
  const Problem p = random_problem(8, 1, 2, 19, true);
  EvalRequest r;
  r.top_k = 5;
  r.batch_evaluations = 700 * p.pairs();  // 58 chunks: more than the two workers, so rank 1 is kept ahead
  const EvalResult whole = on_workers(p, r, 1);
  test::LoopbackRanks ranks(2);
  bool second_came_ahead = false;
  // Rank 1 fails only once rank 0's own worker has had a chunk merged, so that there is something to keep (a
  // checkpoint is written only then); on a fast machine the failure could otherwise come first.
  std::atomic<bool> merged{false};
  EvalControl ctl;
  ctl.progress = [&](const EvalProgress& pr) {
    if (pr.evaluations_done > 0) merged = true;
  };
  std::thread rank1([&] {
    RankLink& link = ranks.link(1);
    Message hello;
    hello.type = MessageType::Hello;
    hello.hello.name = "rank 1 (by hand)";
    hello.hello.fingerprint = sweep_fingerprint(p, r);
    hello.hello.default_batch = 1000;
    link.send(0, encode(hello));
    const Message first = decode(link.receive(0));
    ASSERT_EQ(first.type, MessageType::Assign);
    // Without reporting the first: the second must come anyway.
    int from = 0;
    std::vector<std::uint8_t> bytes;
    for (int waited_ms = 0; waited_ms < 5000 && !second_came_ahead; waited_ms += 5) {
      if (link.poll(from, bytes)) {
        second_came_ahead = decode(bytes).type == MessageType::Assign;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    for (int waited_ms = 0; waited_ms < 5000 && !merged; waited_ms += 1)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    Message failed;
    failed.type = MessageType::Failed;
    failed.failure = "rank 1: the GPU fell off the bus (injected)";
    failed.report.version = first.assignment.version;
    failed.report.chunks = first.assignment.chunks;
    link.send(0, encode(failed));
    while (decode(link.receive(0)).type != MessageType::Stop) {
    }
  });
  RankRoster roster(ranks.link(0));
  SweepSetup setup;
  setup.ranks = &roster;
  setup.checkpoint_on_stop = (dir / "kept.checkpoint").string();
  const EvalResult failed = on_workers(p, r, 1, setup, ctl);
  rank1.join();
  EXPECT_TRUE(merged);
  EXPECT_TRUE(second_came_ahead);
  EXPECT_TRUE(failed.failed);
  EXPECT_NE(failed.stopped.find("fell off the bus"), std::string::npos) << failed.stopped;
  ASSERT_EQ(failed.lost.size(), 2u);
  for (const std::string& lost : failed.lost) EXPECT_NE(lost.find("rank 1 (by hand)"), std::string::npos) << lost;
  EXPECT_EQ(failed.checkpoint, setup.checkpoint_on_stop);
  SweepSetup again;
  again.resume = setup.checkpoint_on_stop;
  expect_identical(on_workers(p, r, 2, again), whole);
}

std::string message_of(const std::function<void()>& f, ErrorKind kind) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.full_message();
    return e.full_message();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(TopoScale, ForeignDamagedOrMissingCheckpointsAreRefused) {
  test::TempDir dir;
  const Problem p = random_problem(7, 1, 1, 5, true);
  const Problem q = random_problem(8, 1, 1, 5, true);
  EvalRequest r;
  r.batch_evaluations = 300;
  SweepSetup write;
  write.checkpoint = (dir / "p.checkpoint").string();
  write.label = "p.txt";
  on_workers(p, r, 1, write);
  const std::string good = read_text(dir / "p.checkpoint");
  auto resume = [&](const Problem& prob, const std::string& file, const std::string& label = "q.txt") {
    SweepSetup s;
    s.resume = (dir / file).string();
    s.label = label;
    on_workers(prob, r, 1, s);
  };
  const std::string foreign = message_of([&] { resume(q, "p.checkpoint"); }, ErrorKind::Usage);
  EXPECT_NE(foreign.find("belongs to another sweep"), std::string::npos) << foreign;
  EXPECT_NE(foreign.find("p.txt: 7 nodes"), std::string::npos) << foreign;
  EXPECT_NE(foreign.find("q.txt: 8 nodes"), std::string::npos) << foreign;
  // The same shape with other values: refused too, the descriptions being equal.
  const std::string values = message_of([&] { resume(random_problem(7, 1, 1, 6, true), "p.checkpoint", "p.txt"); }, ErrorKind::Usage);
  EXPECT_NE(values.find("values differ"), std::string::npos) << values;

  write_text(dir / "cut.checkpoint", good.substr(0, good.size() / 2));
  const std::string cut = message_of([&] { resume(p, "cut.checkpoint"); }, ErrorKind::Io);
  EXPECT_NE(cut.find("truncated"), std::string::npos) << cut;
  std::string changed = good;
  const std::size_t at = changed.find("\"folded\":[[") + 11;
  changed[at] = changed[at] == '1' ? '2' : '1';
  write_text(dir / "changed.checkpoint", changed);
  const std::string sum = message_of([&] { resume(p, "changed.checkpoint"); }, ErrorKind::Io);
  EXPECT_NE(sum.find("checksum does not match"), std::string::npos) << sum;
  write_text(dir / "other.checkpoint", "{\"schema\": \"kernelscope.topo.v1\"}\n");
  const std::string other = message_of([&] { resume(p, "other.checkpoint"); }, ErrorKind::Io);
  EXPECT_NE(other.find("not a kernelscope.topo.checkpoint.v1 file"), std::string::npos) << other;
  const std::string missing = message_of([&] { resume(p, "none.checkpoint"); }, ErrorKind::Usage);
  EXPECT_NE(missing.find("there is no checkpoint"), std::string::npos) << missing;
  // The intact file still resumes (a finished sweep: its results at once).
  EXPECT_NO_THROW(resume(p, "p.checkpoint"));
}

TEST(TopoScale, ASweepOverItsTimeLimitSaysHowLongAndWhatFits) {
  const Problem p = random_problem(14, 1, 1, 7, true);  // 8.7e10 placements on one thread: hours
  EvalRequest r;
  r.batch_evaluations = 1 << 20;  // chunks of a fraction of a second: the estimate comes early
  SweepSetup s;
  s.estimate_after_s = 0.3;
  s.max_time_s = 1;
  std::string notes;
  s.note = [&](const std::string& t) { notes += t; };
  const auto start = std::chrono::steady_clock::now();
  const std::string m = message_of([&] { on_workers(p, r, 1, s); }, ErrorKind::Usage);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
  EXPECT_NE(m.find("more than the time limit of 1 s"), std::string::npos) << m;
  EXPECT_NE(m.find("--range 0:"), std::string::npos) << m;
  EXPECT_NE(notes.find("estimate: this sweep takes about"), std::string::npos) << notes;
  EXPECT_NE(notes.find("CPU (1 threads)"), std::string::npos) << notes;
}

TEST(TopoScale, SixteenNodesIndexAndSweepTheLastPlacements) {
  const std::uint64_t total = factorial(16);
  EXPECT_EQ(total, 20922789888000ull);
  for (std::uint64_t i : {std::uint64_t(0), std::uint64_t(1), total / 3, total - 2, total - 1}) {
    const std::uint64_t code = code_of_index(i, 16);
    EXPECT_EQ(index_of_code(code, 16), i);
    std::vector<int> decoded;
    for (int k = 0; k < 16; ++k) decoded.push_back(node_at(code, k));
    EXPECT_EQ(decoded, nth_placement(i, 16)) << i;
  }
  const SweepPlan plan = plan_sweep(16, 0, total, 1);
  EXPECT_EQ(plan.placements_in(plan.first_run, plan.end_run), total);
  EXPECT_EQ(plan.end_index(plan.end_run), total);
  EXPECT_GE(plan.run_count() * plan.run_size, total);

  // The last placements and a stretch across a run boundary, against the definition.
  const Problem p = random_problem(16, 1, 1, 16, true);
  for (const auto& [lo, hi] : {std::pair{total - 2500, total}, std::pair{plan.run_size * 7 - 900, plan.run_size * 7 + 1100}}) {
    EvalRequest r;
    r.range_begin = lo;
    r.range_end = hi;
    r.top_k = 3;
    const EvalResult res = on_workers(p, r, 2);
    std::int64_t best = INT64_MAX;
    std::uint64_t arg = 0;
    long double sum = 0;
    for (std::uint64_t i = lo; i < hi; ++i) {
      const std::vector<int> pl = nth_placement(i, 16);
      std::int64_t c = 0;
      for (int a = 0; a < 16; ++a)
        for (int b = 0; b < 16; ++b)
          c += p.cost_scaled[std::size_t(a * 16 + b)] * p.traffic_scaled[std::size_t(pl[std::size_t(a)] * 16 + pl[std::size_t(b)])];
      if (c < best) best = c, arg = i;
      sum += (long double)c;
    }
    const SliceResult& s = res.at(0, 0);
    EXPECT_EQ(s.count, hi - lo);
    EXPECT_EQ(s.min.scaled, best);
    EXPECT_EQ(s.argmin, arg);
    EXPECT_EQ(s.placement, nth_placement(arg, 16));
    EXPECT_EQ(s.mean, double(sum / (long double)(hi - lo)));
    ASSERT_EQ(res.top.size(), 3u);
    EXPECT_EQ(res.top[0].index, arg);
  }
}

}  // namespace
}  // namespace ks::topo
