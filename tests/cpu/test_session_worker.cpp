// The session's worker: jobs run off the calling thread, results come back only through take_posted(), newer
// requests replace waiting ones of the same kind, and cancel reaches the running job.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/error.hpp"
#include "session/worker.hpp"

namespace ks::app {
namespace {

using namespace std::chrono_literals;

void run_posted(Worker& w) {
  for (auto& f : w.take_posted()) f();
}

// Waits (bounded) until `done` holds; a broken worker fails the test instead of hanging it.
template <class F>
bool eventually(F done) {
  for (int i = 0; i < 1000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return false;
}

TEST(SessionWorker, RunsJobsOffTheCallingThreadAndPostsResults) {
  Worker w([](const std::string&, std::exception_ptr) {});
  const auto caller = std::this_thread::get_id();
  std::thread::id ran_on;
  int applied = 0;
  w.submit("run", "job", [&](Worker::Context& ctx) {
    ran_on = std::this_thread::get_id();
    ctx.post([&] { ++applied; });
  });
  w.wait_idle();
  EXPECT_NE(ran_on, caller);
  EXPECT_EQ(applied, 0) << "results apply only when the GUI thread collects them";
  run_posted(w);
  EXPECT_EQ(applied, 1);
}

TEST(SessionWorker, NewerRequestsReplaceWaitingOnesOfTheSameKind) {
  Worker w([](const std::string&, std::exception_ptr) {});
  std::atomic<bool> release{false};
  std::vector<int> ran;
  w.submit("block", "blocker", [&](Worker::Context&) {
    while (!release) std::this_thread::sleep_for(1ms);
  });
  ASSERT_TRUE(eventually([&] { return w.status().label == "blocker"; }));
  for (int i = 1; i <= 3; ++i) w.submit("run", "run", [&ran, i](Worker::Context&) { ran.push_back(i); });
  w.submit("other", "other", [&ran](Worker::Context&) { ran.push_back(100); });
  EXPECT_EQ(w.status().pending, 2u) << "the three runs collapse into the newest one";
  release = true;
  w.wait_idle();
  EXPECT_EQ(ran, (std::vector<int>{3, 100}));
}

TEST(SessionWorker, CancelReachesTheRunningJobOnly) {
  Worker w([](const std::string&, std::exception_ptr) {});
  std::atomic<int> steps{0};
  bool stopped_early = false, second_ran = false;
  w.submit("sweep", "long", [&](Worker::Context& ctx) {
    for (int i = 0; i < 10000; ++i) {
      if (ctx.cancelled()) {
        stopped_early = true;
        return;
      }
      ctx.set_progress(i / 10000.0, "step");
      ++steps;
      std::this_thread::sleep_for(1ms);
    }
  });
  w.submit("run", "after", [&](Worker::Context&) { second_ran = true; }, false);
  ASSERT_TRUE(eventually([&] { return steps >= 3; }));
  const Worker::Status s = w.status();
  EXPECT_TRUE(s.busy);
  EXPECT_EQ(s.label, "long");
  EXPECT_GE(s.fraction, 0.0);
  EXPECT_EQ(s.detail, "step");
  EXPECT_EQ(s.pending, 1u);
  w.cancel_running();
  w.wait_idle();
  EXPECT_TRUE(stopped_early);
  EXPECT_LT(steps, 10000);
  EXPECT_TRUE(second_ran) << "cancel stops the running job, not the queue";
}

TEST(SessionWorker, SupersedingAKindStopsOnlyARunningJobOfThatKind) {
  Worker w([](const std::string&, std::exception_ptr) {});
  std::atomic<int> steps{0};
  std::atomic<bool> stopped_early{false};
  auto long_job = [&](Worker::Context& ctx) {
    for (int i = 0; i < 10000; ++i) {
      if (ctx.cancelled()) {
        stopped_early = true;
        return;
      }
      ++steps;
      std::this_thread::sleep_for(1ms);
    }
  };
  w.submit("run", "a run", long_job);
  ASSERT_TRUE(eventually([&] { return steps >= 3; }));
  w.supersede("cpu-reference");  // another kind runs: it goes on
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(stopped_early);
  w.cancel_running();
  w.wait_idle();
  stopped_early = false;
  steps = 0;
  w.submit("cpu-reference", "a check", long_job);
  ASSERT_TRUE(eventually([&] { return steps >= 3; }));
  w.supersede("cpu-reference");
  w.wait_idle();
  EXPECT_TRUE(stopped_early);
  EXPECT_LT(steps, 10000);
}

TEST(SessionWorker, AJobThatThrowsIsReportedAndTheWorkerGoesOn) {
  std::string reported;
  Worker w([&](const std::string& label, std::exception_ptr e) {
    try {
      std::rethrow_exception(e);
    } catch (const Error& err) {
      reported = label + ": " + err.what();
    }
  });
  w.submit("run", "bad job", [](Worker::Context&) { throw_usage("radius=0 is below 1"); });
  bool after = false;
  w.submit("x", "good job", [&](Worker::Context&) { after = true; });
  w.wait_idle();
  run_posted(w);
  EXPECT_EQ(reported, "bad job: radius=0 is below 1");
  EXPECT_TRUE(after);
}

TEST(SessionWorker, DestroyingStopsARunningJob) {
  std::atomic<bool> saw_cancel{false};
  {
    Worker w([](const std::string&, std::exception_ptr) {});
    w.submit("sweep", "long", [&](Worker::Context& ctx) {
      while (!ctx.cancelled()) std::this_thread::sleep_for(1ms);
      saw_cancel = true;
    });
    ASSERT_TRUE(eventually([&] { return w.status().busy && w.status().label == "long"; }));
  }
  EXPECT_TRUE(saw_cancel);
}

}  // namespace
}  // namespace ks::app
