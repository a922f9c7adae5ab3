// The session's runs on the CPU backend: the pixels are the engine's, results arrive through poll(), changes
// are debounced, the history keeps the last runs, and the block sweep stops when cancelled.
#include <gtest/gtest.h>

#include <thread>

#include "assets.hpp"
#include "core/error.hpp"
#include "cpu/session_support.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

using namespace std::chrono_literals;

using session_test::cpu_options;

// What the engine alone makes of the same file and request: the session must show exactly this.
Image engine_result(const Image& loaded, const std::string& kernel, const std::vector<std::string>& params,
                    std::optional<ElemType> type = {}) {
  Engine engine(Engine::Options{1});
  StencilRequest r;
  r.kernel = kernel;
  r.params = KernelRegistry::builtin().get(kernel).default_params();
  for (const auto& p : params) r.params.set_assignment(p);
  r.repeat = 1;
  return engine.run_stencil(prepare_stencil_input(loaded, type), r).output;
}

TEST(SessionRuns, RunNowOnTheCpuGivesTheEnginesPixels) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("median");
  s.set_param("radius", "2");
  s.run_now();
  ASSERT_NE(s.output(), nullptr);
  const Image sample = load_image_from_memory(embedded::sample_png(), "sample");
  EXPECT_TRUE(test::images_match(*s.output(), engine_result(sample, "median", {"radius=2"})));
  ASSERT_TRUE(s.last_report());
  EXPECT_EQ(s.last_report()->kernel, "median");
  EXPECT_EQ(s.last_report()->variant, "cpu");
  EXPECT_EQ(s.last_report()->kernel_time.count, 2);
  EXPECT_GT(s.last_report()->kernel_time.median_ms, 0);
  EXPECT_EQ(s.runs_applied(), 1u);
  const ui::DisplayFrame f = s.display_frame();
  EXPECT_EQ(f.output, s.output());
  EXPECT_FALSE(f.output_device);
  EXPECT_EQ(f.output_generation, 1u);
  ASSERT_TRUE(s.cpu_reference());
  EXPECT_TRUE(s.cpu_reference()->identical) << "a CPU result is its own reference";
}

TEST(SessionRuns, OddSizesAndF32MatchTheEngine) {
  test::TempDir dir;
  for (auto [w, h] : {std::pair{1, 1}, std::pair{1023, 7}, std::pair{37, 129}}) {
    const Image img = test::random_image(w, h, 3, ElemType::U8, std::uint32_t(w * 31 + h));
    save_image(img, dir / "in.png");
    const Image loaded = load_image(dir / "in.png");
    Session s(cpu_options());
    s.open_image(dir / "in.png");
    s.set_element_type(ElemType::F32);
    s.select_kernel("sobel");
    s.set_param("output", "dx");
    s.run_now();
    ASSERT_NE(s.output(), nullptr);
    EXPECT_EQ(s.output()->type(), ElemType::F32);
    EXPECT_TRUE(test::images_match(*s.output(), engine_result(loaded, "sobel", {"output=dx"}, ElemType::F32)))
        << w << "x" << h;
    EXPECT_TRUE(s.display_frame().signed_output) << "an f32 derivative is signed";
  }
}

TEST(SessionRuns, AFailedRunKeepsThePreviousResultAndSaysWhy) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("convolve");
  s.run_now();
  const Image* before = s.output();
  ASSERT_NE(before, nullptr);
  // Each value is fine on its own; together they ask to divide by a zero sum, which only the run finds out.
  s.set_param("matrix", "-1,0,1; -2,0,2; -1,0,1");
  s.set_param("normalize", "true");
  try {
    s.run_now();
    FAIL() << "a zero-sum matrix was normalised";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
  }
  EXPECT_EQ(s.output(), before) << "the last good result stays on screen";
  ASSERT_TRUE(s.last_error());
  auto notices = s.take_notices();
  ASSERT_FALSE(notices.empty());
  EXPECT_EQ(notices.back().level, Session::Notice::Level::Error);
  s.set_param("normalize", "false");
  s.run_now();
  EXPECT_FALSE(s.last_error()) << "the next success clears it";
  EXPECT_NE(s.output(), before);
}

// Waits for the worker's jobs and applies their results, without starting runs that are not due yet
// (Session::wait_idle would start them).
void finish_jobs(Session& s) {
  while (s.job_status().busy) std::this_thread::sleep_for(1ms);
  s.poll();
}

TEST(SessionRuns, ChangesRunAtOnceThenAtMostOncePerDebounceInterval) {
  Session::Clock::time_point t{};
  Session::Options o = cpu_options();
  o.debounce = 100ms;
  o.now = [&t] { return t; };
  Session s(o);
  s.open_sample();  // requests a run
  s.poll();         // the first request after a quiet time runs at once
  EXPECT_TRUE(s.job_status().busy || s.runs_applied() == 0);
  finish_jobs(s);
  EXPECT_EQ(s.runs_applied(), 1u);

  t += 10ms;
  for (const char* r : {"2", "3", "4"}) {
    s.set_param("radius", r);
    s.poll();
  }
  finish_jobs(s);
  EXPECT_EQ(s.runs_applied(), 1u) << "within the interval the changes wait";
  EXPECT_TRUE(s.busy()) << "a run is still due";
  t += 100ms;
  s.poll();
  finish_jobs(s);
  EXPECT_EQ(s.runs_applied(), 2u) << "three changes, one run";
  EXPECT_EQ(s.last_report()->params[0], (std::pair<std::string, std::string>{"radius", "4"}));
  EXPECT_FALSE(s.busy());

  t += 1s;
  s.set_param("radius", "5");
  s.poll();
  finish_jobs(s);
  EXPECT_EQ(s.runs_applied(), 3u) << "after a quiet time a change runs at the next frame";
}

TEST(SessionRuns, TheHistoryKeepsTheLastRunsOfEachKernel) {
  Session::Options o = cpu_options();
  o.history_limit = 3;
  Session s(o);
  s.open_sample();
  for (int i = 0; i < 5; ++i) s.run_now();
  s.select_kernel("median");
  s.run_now();
  const auto& box = s.history().of("box");
  ASSERT_EQ(box.size(), 3u);
  EXPECT_EQ(box.front().run, 3u);
  EXPECT_EQ(box.back().run, 5u);
  EXPECT_EQ(s.history().of("median").size(), 1u);
  EXPECT_EQ(s.history().all().size(), 4u);
  const TimingSummary sum = s.history().summary("box");
  EXPECT_EQ(sum.runs, 3);
  EXPECT_GT(sum.kernel.median_ms, 0);
  EXPECT_LT(sum.median_display_ms, 0) << "nothing was drawn";
  // The renderer reports the time it took to show the result.
  s.note_display(s.display_frame().output_generation, 0.75, "host upload");
  EXPECT_DOUBLE_EQ(s.history().of("median").back().display_ms, 0.75);
  EXPECT_EQ(s.display_path(), "host upload");
}

// Statistics belong to one series (input, kernel, variant, type, parameters, block): a p95 taken over runs on
// another image or with other parameters would describe nothing (issue 15: a 1951 ms p95 on the sample came from
// an earlier 30000^2 image).
TEST(SessionRuns, TimingStatisticsCoverOneSeriesOfRuns) {
  test::TempDir dir;
  save_image(test::random_image(640, 480, 1, ElemType::U8, 4), dir / "big.png");
  Session s(cpu_options());
  s.open_image(dir / "big.png");
  for (int i = 0; i < 3; ++i) s.run_now();  // box on 640x480
  const std::size_t on_big = s.history().of("box").size();
  ASSERT_GE(on_big, 3u);
  const double big_median = s.history().summary("box").kernel.median_ms;
  s.open_sample();
  s.run_now();
  const std::size_t all = s.history().of("box").size();
  const auto series = s.history().series("box");
  ASSERT_GE(series.size(), 1u);
  EXPECT_EQ(series.size(), all - on_big) << "the sample's runs only; every run is still kept (and exported)";
  for (const TimingEntry& e : series) EXPECT_EQ(e.shape.width, s.input()->width());
  const TimingSummary sum = s.history().summary("box");
  EXPECT_EQ(sum.runs, int(series.size()));
  std::vector<double> sample_ms;
  for (const TimingEntry& e : series) sample_ms.push_back(e.kernel_ms());
  EXPECT_DOUBLE_EQ(sum.kernel.median_ms, TimingStats::of(sample_ms).median_ms);
  EXPECT_GT(big_median, 0);

  s.set_param("radius", "3");  // a parameter change starts a new series
  s.run_now();
  EXPECT_EQ(s.history().summary("box").runs, 1);
  EXPECT_NE(series_key(s.history().of("box").back()), series_key(series.back()));
  s.set_param("radius", "1");  // back to the earlier settings: their runs count again
  s.run_now();
  EXPECT_EQ(s.history().summary("box").runs, int(series.size()) + 1);
}

TEST(SessionRuns, LoadingInTheBackgroundReportsSuccessAndFailure) {
  test::TempDir dir;
  save_image(test::random_image(64, 48, 1, ElemType::U8, 9), dir / "a.png");
  Session s(cpu_options());
  s.open_sample();
  s.open_image_async(dir / "nothing-here.png");
  s.wait_idle();
  auto notices = s.take_notices();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].level, Session::Notice::Level::Error);
  EXPECT_NE(notices[0].text.find("nothing-here.png"), std::string::npos);
  EXPECT_EQ(s.input_name(), "embedded sample");
  s.open_image_async(dir / "a.png");
  s.wait_idle();
  EXPECT_EQ(s.input()->width(), 64);
  EXPECT_NE(s.output(), nullptr) << "a new image runs the kernel";
  EXPECT_EQ(s.output()->width(), 64);
}

TEST(SessionRuns, TheSweepNeedsTheCudaBackend) {
  Session s(cpu_options());
  s.open_sample();
  try {
    s.start_sweep();
    FAIL() << "the sweep started on the CPU backend";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("CUDA block shapes"), std::string::npos);
    EXPECT_NE(e.hint().find("no CUDA"), std::string::npos);
  }
  EXPECT_FALSE(s.sweep());
}

DeviceInfo h100_like() {
  DeviceInfo d;
  d.max_threads_per_block = 1024;
  d.max_block_dim_x = 1024;
  d.max_block_dim_y = 1024;
  return d;
}

TEST(SessionSweep, TheGridHoldsEveryPowerOfTwoShapeAndMarksTooManyThreads) {
  const SweepGrid g = make_sweep_grid(h100_like());
  EXPECT_EQ(g.widths, (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(g.heights, g.widths);
  ASSERT_EQ(g.cells.size(), 121u);
  // x = 2^i, y = 2^j with i + j <= 10: 11 + 10 + ... + 1 = 66 shapes.
  EXPECT_EQ(g.runnable(), 66);
  EXPECT_EQ(g.at(3, 5).block, (BlockShape{32, 8}));
  EXPECT_EQ(g.at(3, 5).status, SweepCell::Status::Waiting);
  EXPECT_EQ(g.at(10, 1).status, SweepCell::Status::Invalid);  // 2 x 1024
  EXPECT_NE(g.at(10, 1).note.find("2048 threads"), std::string::npos);
  DeviceInfo small = h100_like();
  small.max_block_dim_y = 64;
  EXPECT_EQ(make_sweep_grid(small).heights.back(), 64);
}

TEST(SessionSweep, MeasuresEachShapeAndStopsWhenCancelled) {
  SweepGrid g = make_sweep_grid(h100_like());
  Engine engine(Engine::Options{1});
  const Image img = test::random_image(33, 17, 1, ElemType::U8, 3);
  std::vector<BlockShape> measured, announced;
  int stop_after = 5;
  SweepCallbacks cb;
  cb.measure = [&](BlockShape b) {
    measured.push_back(b);
    if (b == BlockShape{4, 1}) throw_usage("kernel needs 99 KB of shared memory at 4x1");
    if (b == BlockShape{8, 1}) throw Error(ErrorKind::Device, "launch failed");
    StencilRequest r;
    r.kernel = "box";
    r.params = KernelRegistry::builtin().get("box").default_params();
    r.repeat = 1;
    return engine.run_stencil(img, r).report;  // a real run, timed by the engine
  };
  cb.cancelled = [&] { return int(measured.size()) >= stop_after; };
  cb.progress = [&](int done, int total, BlockShape next) {
    EXPECT_EQ(done, int(announced.size()));
    EXPECT_EQ(total, 66);
    announced.push_back(next);
  };
  run_sweep(g, cb);
  EXPECT_FALSE(g.complete);
  ASSERT_EQ(measured.size(), 5u);
  EXPECT_EQ(measured, announced);
  EXPECT_EQ(measured[0], (BlockShape{1, 1}));
  EXPECT_EQ(measured[4], (BlockShape{16, 1}));
  EXPECT_EQ(g.at(0, 0).status, SweepCell::Status::Ok);
  EXPECT_GT(g.at(0, 0).median_ms, 0);
  EXPECT_EQ(g.at(0, 2).status, SweepCell::Status::Invalid);
  EXPECT_NE(g.at(0, 2).note.find("shared memory"), std::string::npos);
  EXPECT_EQ(g.at(0, 3).status, SweepCell::Status::Failed);
  EXPECT_EQ(g.at(0, 5).status, SweepCell::Status::Waiting) << "not measured after the cancel";
  ASSERT_NE(g.fastest(), nullptr);
  EXPECT_EQ(g.fastest()->status, SweepCell::Status::Ok);

  stop_after = 1000;  // the rest, to the end
  measured.clear();
  announced.clear();
  SweepGrid full = make_sweep_grid(h100_like());
  cb.progress = nullptr;
  run_sweep(full, cb);
  EXPECT_TRUE(full.complete);
  EXPECT_EQ(measured.size(), 66u);
}

}  // namespace
}  // namespace ks::app
