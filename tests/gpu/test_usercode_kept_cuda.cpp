// What the worker and its client keep between runs of a user's kernel: a stencil's result is read where the
// worker wrote it (a result block of shared memory) and no later run writes over a result still read; a step
// kernel's state stays on the worker's GPU between requests and comes back only when asked, equal to the same
// steps run in one request from the host; a fresh worker holds nothing and says so.
#include <gtest/gtest.h>

#include <random>

#include "support/test_support.hpp"
#include "support/user_kernel_runs.hpp"
#include "usercode/run/user_step.hpp"
#include "usercode/run/user_stencil.hpp"

namespace ks::usercode {
namespace {

using namespace test::user_kernels;

const char kOffsetMinus[] = R"(// @family stencil
// @param offset float [0, 1000] = 255
__global__ void offset_minus(ks::InImage<float> in, ks::OutImage<float> out, float offset) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (!out.contains(x, y)) return;
  for (int c = 0; c < in.channels; ++c) out.set(x, y, c, offset - in.at(x, y, c));
}
)";

Image offset_minus(const Image& input, float offset) {
  Image out(input.shape());
  for (std::size_t i = 0; i < input.elements<float>().size(); ++i)
    out.elements<float>()[i] = offset - input.elements<float>()[i];
  return out;
}

TEST(UserKernelKeptCuda, AResultStillReadIsNeverOverwrittenByTheNextRuns) {
  KS_REQUIRE_GPU();
  const CompiledKernel k = compile("offset_minus.cu", kOffsetMinus, worker().hello().arch);
  ASSERT_TRUE(k.ok());
  const Image input = test::random_image(257, 129, 4, ElemType::F32, 5);
  UserLaunchOptions options = launch({32, 8}, {255.0});
  options.input_key = "kept-test-input";
  // Three results read at once: the third run finds both of the client's result blocks read and takes a new one.
  std::vector<UserStencilRun> runs;
  for (const double offset : {255.0, 200.0, 100.0}) {
    options.params = {offset};
    runs.push_back(run_user_stencil(worker(), k, input, 0, 0, options));
    ASSERT_EQ(runs.back().reply.outcome, RunOutcome::Ok) << runs.back().reply.message;
    EXPECT_TRUE(runs.back().output.borrowed());  // read in place, not copied out
  }
  EXPECT_NE(runs[0].output.data(), runs[1].output.data());
  EXPECT_NE(runs[1].output.data(), runs[2].output.data());
  EXPECT_NE(runs[0].output.data(), runs[2].output.data());
  EXPECT_TRUE(test::images_match(runs[0].output, offset_minus(input, 255.f), 0));
  EXPECT_TRUE(test::images_match(runs[1].output, offset_minus(input, 200.f), 0));
  EXPECT_TRUE(test::images_match(runs[2].output, offset_minus(input, 100.f), 0));
  // Once a result is dropped its block serves again; the results still read keep their pixels.
  const std::byte* freed = runs[1].output.data();
  runs[1] = UserStencilRun{};
  options.params = {50.0};
  const UserStencilRun again = run_user_stencil(worker(), k, input, 0, 0, options);
  ASSERT_EQ(again.reply.outcome, RunOutcome::Ok) << again.reply.message;
  EXPECT_EQ(again.output.data(), freed);
  EXPECT_TRUE(test::images_match(again.output, offset_minus(input, 50.f), 0));
  EXPECT_TRUE(test::images_match(runs[0].output, offset_minus(input, 255.f), 0));
  EXPECT_TRUE(test::images_match(runs[2].output, offset_minus(input, 100.f), 0));
}

Image soup(int w, int h) {
  Image state(w, h, 1, ElemType::U8);
  std::mt19937 random(static_cast<unsigned>(w * 7 + h));
  for (auto& c : state.elements<std::uint8_t>()) c = random() % 3 == 0 ? 1 : 0;
  return state;
}

TEST(UserKernelKeptCuda, StepsFromTheStateTheWorkerKeptEqualTheSameStepsInOneRequest) {
  KS_REQUIRE_GPU();
  const CompiledKernel life = compile_template("life_step.cu");
  for (const auto [w, h] : {std::array{67, 45}, std::array{1, 1}, std::array{1023, 7}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const Image start = soup(w, h);
    const UserLaunchOptions options = launch({16, 16}, {3.0});
    const UserStepRun whole = run_user_steps(worker(), life, start, 12, options);
    ASSERT_EQ(whole.reply.outcome, RunOutcome::Ok) << whole.reply.message;

    StepStates first;
    first.initial = &start;
    first.keep_as = worker().new_buffer_name("test state");
    first.download = false;
    const UserStepRun a = run_user_steps(worker(), life, start.shape(), 5, first, options);
    ASSERT_EQ(a.reply.outcome, RunOutcome::Ok) << a.reply.message;
    EXPECT_TRUE(a.state.empty());  // nothing came back
    EXPECT_EQ(a.reply.kernel_ms.size(), 5u);

    StepStates more;
    more.held = first.keep_as;
    more.keep_as = worker().new_buffer_name("test state");
    more.download = false;
    const UserStepRun b = run_user_steps(worker(), life, start.shape(), 7, more, options);
    ASSERT_EQ(b.reply.outcome, RunOutcome::Ok) << b.reply.message;

    // The name a request took over is gone; the latest state comes back (0 steps) and stays kept.
    StepStates stale = more;
    stale.held = first.keep_as;
    EXPECT_TRUE(held_state_missing(run_user_steps(worker(), life, start.shape(), 1, stale, options).reply));
    StepStates fetch;
    fetch.held = more.keep_as;
    fetch.keep_as = more.keep_as;
    const UserStepRun home = run_user_steps(worker(), life, start.shape(), 0, fetch, options);
    ASSERT_EQ(home.reply.outcome, RunOutcome::Ok) << home.reply.message;
    EXPECT_TRUE(home.reply.kernel_ms.empty());
    EXPECT_TRUE(test::images_match(home.state, whole.state, 0));
    EXPECT_TRUE(test::images_match(run_user_steps(worker(), life, start.shape(), 0, fetch, options).state,
                                   whole.state, 0));
  }
}

TEST(UserKernelKeptCuda, AFreshWorkerHoldsNoStateAndSaysSo) {
  KS_REQUIRE_GPU();
  const CompiledKernel life = compile_template("life_step.cu");
  const Image start = soup(33, 17);
  StepStates keep;
  keep.initial = &start;
  keep.keep_as = worker().new_buffer_name("test state");
  keep.download = false;
  ASSERT_EQ(run_user_steps(worker(), life, start.shape(), 2, keep, launch({16, 16}, {3.0})).reply.outcome,
            RunOutcome::Ok);
  WorkerClient fresh([] {
    WorkerClient::Options o;
    o.executable = KS_CLI_PATH;
    return o;
  }());
  StepStates held;
  held.held = keep.keep_as;
  held.keep_as = keep.keep_as;
  const UserStepRun run = run_user_steps(fresh, life, start.shape(), 1, held, launch({16, 16}, {3.0}));
  EXPECT_TRUE(held_state_missing(run.reply)) << run.reply.message;
  EXPECT_TRUE(run.state.empty());
  EXPECT_TRUE(fresh.running());  // a refusal, not a fault: the worker goes on
}

}  // namespace
}  // namespace ks::usercode
