// A user's `step` kernel stepping the app's live simulation (Session::use_user_step_kernel), without a GPU: fake
// workers (tests/support/fake_worker.hpp) stand in for `kernelscope-cli worker`, the first answering every step
// with the state it was given (a kernel that changes nothing), so what the session does around the worker is
// tested here — which simulation the kernel's cells fit, the check against the built-in on the CPU, the timing,
// the frames, the difference, faults, refusals and the way back. The real kernel on a GPU: tests/gpu.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "cpu/session_sim_support.hpp"
#include "session/session.hpp"
#include "sim/life_patterns.hpp"
#include "support/fake_worker.hpp"
#include "support/user_kernel_sources.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::app {
namespace {

using test_sim::cpu_options;

std::shared_ptr<const usercode::CompiledKernel> compile(const std::string& name, const std::string& source) {
  usercode::CompileRequest r;
  r.file_name = name;
  r.source = source;
  r.options.arch = "sm_90";
  auto k = std::make_shared<usercode::CompiledKernel>(usercode::compile_user_kernel(r));
  EXPECT_TRUE(k->ok()) << (k->module ? k->module->log : std::string());
  return k;
}

UserStepChoice life_template() {
  const std::string source =
      usercode::read_kernel_source(std::filesystem::path(KS_SOURCE_DIR) / "assets/kernels/life_step.cu");
  return {compile("life_step.cu", source), "life_step.cu", {3}};
}

// The worker the session starts: $KS_WORKER (usercode::default_worker_executable).
struct WorkerFromEnvironment {
  explicit WorkerFromEnvironment(const test::FakeWorker& fake) { ::setenv("KS_WORKER", fake.path().c_str(), 1); }
  ~WorkerFromEnvironment() { ::unsetenv("KS_WORKER"); }
};

test::FakeWorker identity_worker() { return test::FakeWorker(std::string(test::kFakeHello) + "\n" + test::kFakeIdentityLoop); }

bool has_notice(Session& s, const std::string& part) {
  for (const auto& n : s.take_notices())
    if (n.text.find(part) != std::string::npos) return true;
  return false;
}

TEST(SessionUserStep, AU8KernelStepsLifeThroughTheWorkerAndIsCheckedAgainstItsCpuStep) {
  const test::FakeWorker fake = identity_worker();
  const WorkerFromEnvironment env(fake);
  Session s(cpu_options());
  s.open_sample();
  ASSERT_EQ(s.kernel().id, "box");
  s.use_user_step_kernel(life_template());
  EXPECT_TRUE(has_notice(s, "your kernel keeps u8 cells, so it steps the life simulation"));
  ASSERT_TRUE(s.simulating());
  EXPECT_EQ(s.kernel().id, "life");
  s.simulation().set_playing(false);
  s.simulation().set_grid_size(33, 17);
  s.set_param("density", "0");  // an empty grid: a still life, which a kernel that changes nothing gets right
  s.wait_idle();
  ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  ASSERT_TRUE(s.simulation().report());
  EXPECT_EQ(s.simulation().report()->variant, "yours");
  EXPECT_EQ(s.simulation().report()->device, "Fake GPU");
  // Each (re)start checks one step against life on the CPU; the state does not move.
  ASSERT_TRUE(s.simulation().user_check());
  EXPECT_TRUE(s.simulation().user_check()->comparison.matches());
  EXPECT_EQ(s.simulation().user_check()->comparison.compared, 33u * 17u);
  EXPECT_EQ(s.simulation().user_check()->reference, "life on the CPU");
  EXPECT_EQ(s.simulation().generation(), 0);

  // A blinker turns on the CPU and stays as it is under this "kernel": its two ends die and two cells are born.
  s.simulation().set_pattern(std::make_shared<const sim::LifePattern>(sim::builtin_pattern("blinker")));
  s.request_run();
  s.wait_idle();
  ASSERT_TRUE(s.simulation().user_check());
  const usercode::Comparison& c = s.simulation().user_check()->comparison;
  EXPECT_FALSE(c.matches());
  EXPECT_EQ(c.differing, 4u);
  EXPECT_EQ(c.max_abs_diff, 1);
  ASSERT_TRUE(c.first);  // row-major: the cell born above the centre comes first (the kernel says 0, life 1)
  EXPECT_EQ(c.first->got, 0);
  EXPECT_EQ(c.first->expected, 1);
  EXPECT_EQ(c.first->x, 16);
  EXPECT_EQ(c.first->y, 7);

  // Steps go through the worker: the generation advances, the fake's 0.5 ms per step are the step times, and the
  // frame (on the host) still shows the horizontal blinker as Life's 0/255 cells.
  s.simulation().step(3);
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 3);
  ASSERT_EQ(s.simulation().timing().recent_ms.size(), 3u);
  EXPECT_EQ(s.simulation().timing().stats.median_ms, 0.5);
  const Image& frame = test_sim::host_frame(s);
  EXPECT_EQ(frame.row<std::uint8_t>(8)[15], 255);
  EXPECT_EQ(frame.row<std::uint8_t>(8)[16], 255);
  EXPECT_EQ(frame.row<std::uint8_t>(7)[16], 0);
  ASSERT_TRUE(s.simulation().stats().population);
  EXPECT_EQ(*s.simulation().stats().population, 3);

  // The difference in place of the state, in a generation of its own; and back.
  const std::uint64_t plain = s.display_frame().output_generation;
  s.simulation().set_show_difference(true);
  const ui::DisplayFrame diff = s.display_frame();
  ASSERT_NE(diff.output, nullptr);
  EXPECT_EQ(diff.output->channels(), 4);
  EXPECT_EQ(diff.output->width(), 33);
  EXPECT_NE(diff.output_generation, plain);
  s.simulation().set_show_difference(false);
  EXPECT_EQ(s.display_frame().output_generation, plain);

  // A check of more steps from here, on demand: two steps bring the CPU's blinker back where this kernel keeps it.
  s.simulation().check_user_steps(2);
  s.wait_idle();
  ASSERT_TRUE(s.simulation().user_check());
  EXPECT_EQ(s.simulation().user_check()->steps, 2);
  EXPECT_EQ(s.simulation().user_check()->generation, 3);
  EXPECT_TRUE(s.simulation().user_check()->comparison.matches())
      << usercode::comparison_summary(s.simulation().user_check()->comparison);
  EXPECT_THROW(s.simulation().check_user_steps(0), Error);
  EXPECT_THROW(s.simulation().check_user_steps(SimulationRunner::kMaxCheckSteps + 1), Error);

  // The declared parameter: checked against its range, never clamped.
  EXPECT_THROW(s.simulation().set_user_param(0, 9), Error);
  s.simulation().set_user_param(0, 4);
  s.wait_idle();
  EXPECT_EQ(s.simulation().user_step()->params[0], 4);
  EXPECT_EQ(s.simulation().generation(), 3);  // a new parameter carries the state on
  ASSERT_TRUE(s.simulation().user_check());  // and the kernel with it is checked from there
  EXPECT_EQ(s.simulation().user_check()->generation, 3);

  // Back to the built-in: its own variant, from the state shown.
  s.use_user_step_kernel(std::nullopt);
  s.wait_idle();
  EXPECT_FALSE(s.simulation().user_step());
  EXPECT_EQ(s.simulation().report()->variant, "cpu");
  EXPECT_EQ(s.simulation().generation(), 3);
}

std::vector<nlohmann::json> requests_in(const std::filesystem::path& file) {
  std::vector<nlohmann::json> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line).at("run"));
  return out;
}

// The identity worker, running the shell lines `first` on each request before it answers.
test::FakeWorker identity_worker_doing(const std::string& first) {
  std::string loop = test::kFakeIdentityLoop;
  loop.replace(loop.find("  n=$("), 0, first);
  return test::FakeWorker(std::string(test::kFakeHello) + "\n" + loop);
}

// Shell lines that write each request down in `log`, a line each.
std::string write_request_to(const std::string& log) { return "  printf '%s\\n' \"$request\" >> " + log + "\n"; }

void paused_life(Session& s, int width, int height) {
  s.select_kernel("life");
  s.simulation().set_playing(false);
  s.simulation().set_grid_size(width, height);
}

TEST(SessionUserStep, TheBlockChoiceAppliesAndStepsGoManyToARequest) {
  // The identity worker, writing down every request it gets.
  test::TempDir dir;
  const auto log = (dir / "requests").string();
  const test::FakeWorker fake = identity_worker_doing(write_request_to(log));
  const WorkerFromEnvironment env(fake);
  Session s(cpu_options());
  paused_life(s, 257, 129);
  s.set_block(BlockShape{16, 4});
  s.use_user_step_kernel(life_template());
  s.simulation().step(1);
  s.wait_idle();
  ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  // Once a step's time is known, a slice asks for as many steps as its time allows in one request: the worker
  // then launches them back to back and the state crosses the pipe once.
  s.simulation().step(40);
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 41);
  const auto requests = requests_in(log);
  ASSERT_GE(requests.size(), 3u);  // the check of the first step, the step, the 40 steps
  for (const auto& r : requests) {
    EXPECT_EQ(r.at("block"), (nlohmann::json{16, 4, 1}));
    EXPECT_EQ(r.at("grid"), (nlohmann::json{17, 33, 1}));  // ceil(257 / 16), ceil(129 / 4)
    EXPECT_TRUE(r.at("swap_first_two").get<bool>());
  }
  // The 40 steps are the last request that launches anything; a request of no launch then brings the state home
  // for the frame.
  const auto last_steps = std::find_if(requests.rbegin(), requests.rend(),
                                       [](const nlohmann::json& r) { return r.at("timed").get<int>() > 0; });
  ASSERT_NE(last_steps, requests.rend());
  EXPECT_EQ(last_steps->at("timed"), 40);
  EXPECT_EQ(requests.back().at("timed"), 0);
  ASSERT_TRUE(s.simulation().report());
  ASSERT_TRUE(s.simulation().report()->block);
  EXPECT_EQ(*s.simulation().report()->block, (BlockShape{16, 4}));
}

TEST(SessionUserStep, AF32KernelStepsHeatAndGrayScottGivesWayWithANotice) {
  const test::FakeWorker fake = identity_worker();
  const WorkerFromEnvironment env(fake);
  Session s(cpu_options());
  s.select_kernel("grayscott");
  s.simulation().set_playing(false);
  s.simulation().set_grid_size(101, 63);
  s.wait_idle();
  s.take_notices();
  s.use_user_step_kernel(UserStepChoice{compile("heat.cu", test::kHeatPeriodic), "heat.cu", {0.2}});
  EXPECT_TRUE(has_notice(s, "Gray-Scott keeps two (u and v), so it steps heat instead"));
  EXPECT_EQ(s.kernel().id, "heat");
  s.simulation().set_playing(false);
  s.wait_idle();
  ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  EXPECT_EQ(s.simulation().report()->variant, "yours");
  // Hot spots spread on the CPU and stay as they are here: the f32 check finds them beyond its tolerance.
  ASSERT_TRUE(s.simulation().user_check());
  EXPECT_FALSE(s.simulation().user_check()->comparison.matches());
  EXPECT_EQ(s.simulation().user_check()->tolerance, (usercode::Tolerance{1e-5, 1e-5}));
  EXPECT_EQ(s.simulation().user_check()->reference, "heat on the CPU");
  // Choosing another simulation ends your kernel; that simulation runs its built-in steps.
  s.take_notices();
  s.select_kernel("life");
  EXPECT_TRUE(has_notice(s, "your step kernel stopped"));
  EXPECT_FALSE(s.simulation().user_step());
  s.wait_idle();
  EXPECT_EQ(s.simulation().report()->variant, "cpu");
}

TEST(SessionUserStep, RefusesKernelsOfOtherFamiliesAndKernelsThatDoNotCompile) {
  const test::FakeWorker fake = identity_worker();
  const WorkerFromEnvironment env(fake);
  Session s(cpu_options());
  try {
    s.use_user_step_kernel(UserStepChoice{compile("smooth.cu", test::kSmoothU8WithBias), "smooth.cu", {0}});
    ADD_FAILURE() << "a stencil kernel was taken as a step kernel";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find("not of the step family"), std::string::npos) << e.full_message();
  }
  usercode::CompileRequest broken;
  broken.file_name = "broken.cu";
  broken.source = "// @family step\n__global__ void k(const float* state, float* next, int width, int height) { x; }\n";
  auto k = std::make_shared<usercode::CompiledKernel>(usercode::compile_user_kernel(broken));
  ASSERT_FALSE(k->ok());
  EXPECT_THROW(s.use_user_step_kernel(UserStepChoice{k, "broken.cu", {}}), Error);
  EXPECT_EQ(s.kernel().id, "box");  // nothing changed
  EXPECT_FALSE(s.simulating());
}

TEST(SessionUserStep, WithoutAGpuTheSimulationSaysSoAndTheBuiltInGoesOn) {
  const test::FakeWorker fake(
      R"(echo '{"hello":{"ok":false,"device":"","arch":"","message":"there is no CUDA device"}}')");
  const WorkerFromEnvironment env(fake);
  Session s(cpu_options());
  s.select_kernel("life");
  s.simulation().set_playing(false);
  s.simulation().set_grid_size(21, 11);
  s.wait_idle();
  s.use_user_step_kernel(life_template());
  s.wait_idle();
  ASSERT_TRUE(s.simulation().error());
  EXPECT_NE(s.simulation().error()->full_message().find("cannot run your kernel: there is no CUDA device"),
            std::string::npos)
      << s.simulation().error()->full_message();
  EXPECT_TRUE(s.has_output());  // the built-in's frame stays
  s.use_user_step_kernel(std::nullopt);
  s.simulation().step(2);
  s.wait_idle();
  EXPECT_FALSE(s.simulation().error());
  EXPECT_EQ(s.simulation().generation(), 2);
}

// The state stays on the worker's GPU between requests: a step request names the state the last one kept (no
// upload) and keeps the next under a new name without sending it back; it comes home once, for the frame, in a
// request of no launch that keeps it where it is.
// A paused 31x17 Life stepped by the Life template on the identity worker, which writes down every request.
struct LoggedLife {
  test::TempDir dir;
  std::string log = (dir / "requests").string();
  test::FakeWorker fake = identity_worker_doing(write_request_to(log));
  WorkerFromEnvironment env{fake};
  Session s{cpu_options()};
  LoggedLife() {
    paused_life(s, 31, 17);
    s.use_user_step_kernel(life_template());
  }
};

TEST(SessionUserStep, TheStateStaysOnTheWorkerBetweenStepsAndComesBackForTheFrame) {
  LoggedLife life;
  Session& s = life.s;
  const std::string& log = life.log;
  s.wait_idle();
  const std::size_t before = requests_in(log).size();
  s.simulation().step(1);
  s.wait_idle();
  s.simulation().step(2);
  s.wait_idle();
  ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  const auto all = requests_in(log);
  const std::vector<nlohmann::json> requests(all.begin() + static_cast<std::ptrdiff_t>(before), all.end());
  ASSERT_EQ(requests.size(), 4u);  // step, frame, step, frame
  std::string kept;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& state = requests[i].at("buffers").at(0);
    EXPECT_EQ(requests[i].at("timed"), i % 2 == 0 ? (i == 0 ? 1 : 2) : 0);
    if (i > 0) {
      EXPECT_FALSE(state.at("upload").get<bool>());  // the worker's own state, not the host's
      EXPECT_TRUE(state.at("require_held").get<bool>());
      EXPECT_EQ(state.at("content_key").get<std::string>(), kept);
    }
    EXPECT_EQ(state.at("download").get<bool>(), i % 2 == 1);  // home only for the frame
    kept = state.at("keep_as").get<std::string>();
    ASSERT_FALSE(kept.empty());
    if (i % 2 == 1) {
      EXPECT_EQ(kept, state.at("content_key").get<std::string>());  // and still kept there
    }
  }
  EXPECT_EQ(s.simulation().generation(), 3);
  EXPECT_TRUE(s.has_output());
  // The display path says where the frame came from: the worker, not the CPU backend.
  EXPECT_EQ(s.display_frame().host_origin, ui::kUserStateOnHost);
}

// The brush paints the state brought home; the next step sends it up (a new state, nothing kept named) and it
// comes back with the stroke in it.
TEST(SessionUserStep, APaintedStateGoesUpWithTheNextStep) {
  LoggedLife life;
  Session& s = life.s;
  const std::string& log = life.log;
  s.simulation().step(1);
  s.wait_idle();
  SimulationRunner::Brush brush = s.simulation().brush();
  brush.radius = 0;
  brush.value = 1;
  s.simulation().set_brush(brush);
  s.simulation().paint_line(5.5, 6.5, 5.5, 6.5);
  s.wait_idle();
  const std::size_t before = requests_in(log).size();
  s.simulation().step(1);
  s.wait_idle();
  ASSERT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  const auto requests = requests_in(log);
  ASSERT_EQ(requests.size(), before + 2);  // the step and its frame
  const auto& state = requests[before].at("buffers").at(0);
  EXPECT_TRUE(state.at("upload").get<bool>());
  EXPECT_FALSE(state.contains("require_held"));
  ASSERT_TRUE(s.simulation().frame().host);
  EXPECT_EQ(s.simulation().frame().host->row<std::uint8_t>(6)[5], 255);  // the identity kernel kept the stroke
}

// A worker that lost the state it kept (started again) refuses a request that names it: the simulation stops with
// the app's words and goes on from the last state shown, uploading it again.
TEST(SessionUserStep, AWorkerThatLostTheKeptStateFallsBackToTheStateShown) {
  test::TempDir dir;
  const auto refused = (dir / "refused").string();
  // The identity worker, which refuses the first request naming a kept state as a fresh worker would.
  const test::FakeWorker fake = identity_worker_doing(
      "  case \"$request\" in *require_held*) if [ ! -e " + refused + " ]; then\n    touch " + refused +
      "\n    echo '{\"progress\":0}'\n" +
      R"x(    echo '{"reply":{"outcome":"failed","message":"the worker does not hold that buffer",)x"
      R"x("cuda_error":"","kernel_ms":[],"upload_ms":0,"download_ms":0,"load_ms":0}}')x"
      "\n    continue\n  fi;; esac\n");
  const WorkerFromEnvironment env(fake);
  Session s(cpu_options());
  paused_life(s, 31, 17);
  s.use_user_step_kernel(life_template());
  s.wait_idle();
  s.simulation().step(1);
  s.wait_idle();
  ASSERT_TRUE(s.simulation().error());
  EXPECT_NE(s.simulation().error()->full_message().find("the state it kept on the GPU is gone"), std::string::npos)
      << s.simulation().error()->full_message();
  EXPECT_TRUE(s.has_output());  // the state shown stays
  // Run again: the steps start from the host's state, uploaded, and go on.
  s.use_user_step_kernel(life_template());
  s.simulation().step(2);
  s.wait_idle();
  EXPECT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  EXPECT_EQ(s.simulation().generation(), 3);
}

TEST(SessionUserStep, AFaultStopsTheSimulationWithItsWordsAndTheNextKernelRuns) {
  // The first request faults (and the worker exits, as the real one does); a fresh worker answers the rest.
  test::TempDir dir;
  const auto flag = (dir / "faulted").string();
  const test::FakeWorker fake(
      std::string(test::kFakeHello) + "\nif [ ! -e " + flag + " ]; then\n  read request\n  touch " + flag +
      "\n  echo '{\"progress\":0}'\n" +
      R"x(  echo '{"reply":{"outcome":"fault","message":"your kernel accessed memory outside its buffers (illegal address)","cuda_error":"cudaErrorIllegalAddress","kernel_ms":[],"upload_ms":0,"download_ms":0,"load_ms":0}}')x" +
      "\n  exit 3\nfi\n" + test::kFakeIdentityLoop);
  const WorkerFromEnvironment env(fake);
  Session s(cpu_options());
  s.select_kernel("life");
  s.simulation().set_grid_size(21, 11);
  s.use_user_step_kernel(life_template());
  EXPECT_TRUE(s.simulation().playing());
  s.wait_idle();
  ASSERT_TRUE(s.simulation().error());
  EXPECT_NE(s.simulation().error()->full_message().find("illegal address"), std::string::npos);
  EXPECT_FALSE(s.simulation().playing());  // stopped, the state on screen kept
  EXPECT_TRUE(s.has_output());
  // The kernel fixed (a new compile): it replaces the faulty one, the error goes and playing goes on.
  s.use_user_step_kernel(life_template());
  s.simulation().step(2);
  s.wait_idle();
  EXPECT_FALSE(s.simulation().error()) << s.simulation().error()->full_message();
  EXPECT_TRUE(s.simulation().playing());
  ASSERT_TRUE(s.simulation().user_check());
}

}  // namespace
}  // namespace ks::app