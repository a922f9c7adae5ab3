// From a run's end to its "Why" text (docs/PERF.md "Why: from a run's end to the text"): the explainer on the
// reports recorded on an H100 (tests/fixtures/why, with the H100's limits: the block search and the tail effect
// run), and the app's path (app::WhyCache on a fresh report of the session: a stencil run with a device model, a
// simulation's steps), each the median of many. The app puts the text on screen in the frame whose poll() applied
// the report, so the latency is this time plus at most one frame. By hand, no GPU needed:
// ks_bench_why_latency [REPEATS].
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "report/why_explain.hpp"
#include "session/session.hpp"
#include "session/why_cache.hpp"
#include "support/why_recorded.hpp"
#include "support/why_support.hpp"

namespace {

using namespace ks;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

app::Session::Options cpu_session() {
  app::Session::Options o;
  o.cpu_threads = 2;
  o.use_cuda = false;
  o.repeat = 2;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 201;
  fmt::print("{:<44} {:>12} {:>9}\n", "explained", "median ms", "findings");
  for (const char* name : {"h100-box-u8-naive.json", "h100-box-f32-naive.json", "h100-box-u8-tiled.json",
                           "h100-box-u8-separable.json"}) {
    const RunReport report = why_test::recorded_run_report(name);
    std::vector<double> ms;
    std::size_t findings = 0;
    for (int i = 0; i < repeats; ++i) {
      const auto t = Clock::now();
      findings = report::explain_why(report, &why_test::h100()).size();
      ms.push_back(ms_since(t));
    }
    fmt::print("{:<44} {:>12.4f} {:>9}\n", fmt::format("recorded {}", name), median(ms), findings);
  }

  {  // The costliest path: a low occupancy sends the explainer through every candidate block for a better one.
    RunReport report = why_test::recorded_run_report("h100-box-u8-naive.json");
    report.occupancy->registers_per_thread = 128;
    report.occupancy->active_blocks_per_sm = 2;
    report.occupancy->occupancy = 0.25;
    report.occupancy->limiter = "registers";
    std::vector<double> ms;
    std::size_t findings = 0;
    for (int i = 0; i < repeats; ++i) {
      const auto t = Clock::now();
      findings = report::explain_why(report, &why_test::h100()).size();
      ms.push_back(ms_since(t));
    }
    fmt::print("{:<44} {:>12.4f} {:>9}\n", "naive u8 at 128 registers (block search)", median(ms), findings);
  }
  {  // The app: each run's report explained once, at the first frame after it arrives.
    app::Session s(cpu_session());
    s.open_sample();
    s.set_device_model("h100");
    std::vector<double> ms;
    for (int i = 0; i < std::min(repeats, 21); ++i) {
      s.set_param("radius", i % 2 ? "2" : "3");
      s.run_now();
      app::WhyCache cache;
      const auto t = Clock::now();
      cache.current(s);
      ms.push_back(ms_since(t));
    }
    fmt::print("{:<44} {:>12.4f}\n", "app: box run + modelled H100 launch", median(ms));
  }
  {
    app::Session s(cpu_session());
    s.open_sample();
    s.select_kernel("heat");
    s.simulation().set_playing(false);
    s.simulation().set_grid_size(1024, 1024);
    s.run_now();
    app::WhyCache cache;
    std::vector<double> ms;
    for (int i = 0; i < std::min(repeats, 21); ++i) {
      s.simulation().step(1);
      s.wait_idle();
      const auto t = Clock::now();
      cache.current(s);
      ms.push_back(ms_since(t));
    }
    fmt::print("{:<44} {:>12.4f}\n", "app: heat 1024x1024 after a step", median(ms));
  }
  return 0;
}
