// The CPU runs of reduce, integrate2d and matmul report progress from the pool's threads and stop when the
// run is cancelled (a Cancelled error out of run_cpu), as the CLI's Ctrl-C and the GUI's Cancel need.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "lab/lab.hpp"
#include "registry/registry.hpp"

namespace ks {
namespace {

struct Outcome {
  bool cancelled = false;
  int reports = 0;
  double most = 0;  // the largest fraction reported (threads may report out of order)
};

Outcome run_cpu(const std::string& kernel, const lab::LabSize& size, bool cancel) {
  const lab::LabKernel& k = lab::find_lab_kernel(kernel);
  const ParamSet params = KernelRegistry::builtin().get(kernel).default_params();
  const std::vector<lab::ArraySpec> specs = k.arrays(size, params);
  std::vector<std::vector<std::byte>> storage;
  lab::ArrayViews views;
  for (const auto& s : specs) {
    storage.emplace_back(s.bytes());
    views.push_back({&s, storage.back().data(), s.count()});
  }
  ThreadPool pool(2);
  std::atomic<bool> flag{cancel};
  Outcome out;
  std::mutex
      m;  // the callback is called under ThreadedProgress's lock; this one only guards the test's counters
  lab::LabRunControl control;
  control.cancel = &flag;
  control.progress = [&](double f, const std::string&) {
    std::lock_guard lock(m);
    ++out.reports;
    out.most = std::max(out.most, f);
  };
  lab::CpuRun run;
  run.variant = "cpu";
  run.arrays = &views;
  run.size = size;
  run.params = &params;
  run.pool = &pool;
  run.control = &control;
  try {
    k.run_cpu(run);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Cancelled) << e.what();
    out.cancelled = true;
  }
  return out;
}

TEST(LabCpuRuns, ReportProgressAndStopWhenCancelled) {
  const std::pair<const char*, lab::LabSize> cases[] = {{"reduce", lab::LabSize::elements(1 << 20)},
                                                        {"integrate2d", lab::LabSize::grid(1024, 256)},
                                                        {"matmul", lab::LabSize::matmul(256, 64, 64)}};
  for (const auto& [kernel, size] : cases) {
    SCOPED_TRACE(kernel);
    const Outcome done = run_cpu(kernel, size, false);
    EXPECT_FALSE(done.cancelled);
    EXPECT_GT(done.reports, 1);
    EXPECT_EQ(done.most, 1.0) << "every piece is reported";
    EXPECT_TRUE(run_cpu(kernel, size, true).cancelled);
  }
}

}  // namespace
}  // namespace ks
