#pragma once
// Sweeps as the CPU tests of scale run them: on several CPU workers, stopped and resumed from a checkpoint; and the
// placement of an index written out from the factorial number system (independent of the code under test).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "topo/evaluation.hpp"

namespace ks::test {

// Three pools of one thread each: a worker's results must not depend on its threads.
inline ThreadPool& one_thread_pool(int i) {
  static ThreadPool pools[3] = {ThreadPool(1), ThreadPool(1), ThreadPool(1)};
  return pools[i];
}

inline topo::EvalResult on_workers(const topo::Problem& p, const topo::EvalRequest& r, int workers,
                                   topo::SweepSetup setup = {}, topo::EvalControl ctl = {}) {
  for (int i = 0; i < workers; ++i) setup.cpu_workers.push_back(&one_thread_pool(i));
  return topo::evaluate(p, r, ctl, setup);
}

// Stops a sweep in `pass` (after `after` progress reports in it), then resumes it from its checkpoint.
inline topo::EvalResult stop_and_resume(const topo::Problem& p, const topo::EvalRequest& r, const std::string& pass,
                                        int after, bool abort, const std::filesystem::path& file) {
  std::atomic<bool> cancel{false}, kill{false};
  topo::EvalControl ctl;
  ctl.cancel = &cancel;
  ctl.abort = &kill;
  int seen = 0;
  ctl.progress = [&](const topo::EvalProgress& pr) {
    if (pass == pr.pass && ++seen >= after) (abort ? kill : cancel) = true;
  };
  topo::SweepSetup setup;
  setup.checkpoint = file.string();
  const topo::EvalResult stopped = on_workers(p, r, 2, setup, ctl);
  EXPECT_FALSE(stopped.complete) << pass;
  EXPECT_EQ(stopped.checkpoint, file.string());
  EXPECT_EQ(stopped.stopped, abort ? "terminated" : "cancelled");
  topo::SweepSetup again;
  again.resume = file.string();
  again.checkpoint = file.string();
  const topo::EvalResult resumed = on_workers(p, r, 3, again);
  EXPECT_EQ(resumed.sessions, 2);
  return resumed;
}

// Placement number `index` of n nodes (n <= 20), from the factorial number system written out here.
inline std::vector<int> nth_placement(std::uint64_t index, int n) {
  std::vector<int> left(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) left[std::size_t(i)] = i;
  std::vector<int> out;
  for (int i = n; i >= 1; --i) {
    std::uint64_t f = 1;
    for (int k = 2; k < i; ++k) f *= std::uint64_t(k);
    out.push_back(left[std::size_t(index / f)]);
    left.erase(left.begin() + std::ptrdiff_t(index / f));
    index %= f;
  }
  return out;
}

}  // namespace ks::test
