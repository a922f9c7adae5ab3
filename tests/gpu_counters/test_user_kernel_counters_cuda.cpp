// The hardware counters of users' own kernels, read in the worker process (one more launch after the timed ones,
// through its own CUDA context and the same read_counters path as the built-ins): a copy kernel moves twice its
// image through DRAM, the counted launch changes neither the results nor the timings, and a step kernel's state
// does not move for it. GPU machine; skipped without a device. A driver that forbids counters fails here with its
// message, as in test_counters_cuda.cpp.
#include <gtest/gtest.h>

#include "support/test_support.hpp"
#include "support/user_kernel_runs.hpp"
#include "support/user_kernel_sources.hpp"
#include "usercode/run/user_step.hpp"
#include "usercode/run/user_stencil.hpp"

namespace ks::usercode {
namespace {

using namespace test::user_kernels;

const char kCopy[] = R"(// @family stencil
__global__ void copy_image(ks::InImage<float> in, ks::OutImage<float> out) {
  const int x = ks::global_x(), y = ks::global_y();
  if (!out.contains(x, y)) return;
  for (int c = 0; c < in.channels; ++c) out.set(x, y, c, in.at(x, y, c));
}
)";

const KernelCounters& counters_or_fail(const WorkerReply& reply) {
  if (!reply.counters) throw std::runtime_error("the reply carries no counters");
  if (!reply.counters->counters) throw std::runtime_error("no counters: " + reply.counters->unavailable);
  return *reply.counters->counters;
}

TEST(UserKernelCountersCuda, ACopyKernelMovesTwiceItsImageThroughDram) {
  KS_REQUIRE_GPU();
  const CompiledKernel k = compile("copy_image.cu", kCopy, worker().hello().arch);
  ASSERT_TRUE(k.ok());
  // 8191 x 4099 f32: 134 MB each way, well past the L2 cache, and no multiple of the block.
  const Image input = test::random_image(8191, 4099, 1, ElemType::F32, 11);
  UserLaunchOptions options = launch({32, 8});
  options.counters = true;
  const UserStencilRun run = run_user_stencil(worker(), k, input, 0, 0, options);
  ASSERT_EQ(run.reply.outcome, RunOutcome::Ok) << run.reply.message;
  EXPECT_TRUE(test::images_match(run.output, input, 0)) << "the counted launch came after the download";
  EXPECT_EQ(run.reply.kernel_ms.size(), 2u) << "the counted launch is not a timed one";
  const KernelCounters& c = counters_or_fail(run.reply);
  EXPECT_EQ(c.kernel_name, "copy_image");
  const double image_bytes = double(input.byte_size());
  EXPECT_NEAR(c.dram_read_bytes, image_bytes, 0.1 * image_bytes);
  EXPECT_NEAR(c.dram_write_bytes, image_bytes, 0.1 * image_bytes);
  EXPECT_NEAR(c.dram_bytes(), 2 * image_bytes, 0.1 * 2 * image_bytes);
  // Consecutive lanes read consecutive floats: 4 sectors per request, with the odd width's row starts a little
  // more.
  EXPECT_GE(c.load_sectors_per_request(), 4.0);
  EXPECT_LT(c.load_sectors_per_request(), 5.0);
  EXPECT_GT(c.achieved_occupancy_pct, 0);

  // Without asking: none, and nothing said.
  const UserStencilRun plain = run_user_stencil(worker(), k, input, 0, 0, launch({32, 8}));
  ASSERT_EQ(plain.reply.outcome, RunOutcome::Ok) << plain.reply.message;
  EXPECT_FALSE(plain.reply.counters);
}

TEST(UserKernelCountersCuda, AStepKernelsStateDoesNotMoveForItsCounters) {
  KS_REQUIRE_GPU();
  const CompiledKernel k = compile("life_born_36.cu", test::kLifeBornOn3Or6, worker().hello().arch);
  ASSERT_TRUE(k.ok());
  Image initial = test::random_image(257, 131, 1, ElemType::U8, 5);
  for (auto& cell : initial.elements<std::uint8_t>()) cell = cell & 1;
  const UserStepRun plain = run_user_steps(worker(), k, initial, 5, launch({32, 8}));
  ASSERT_EQ(plain.reply.outcome, RunOutcome::Ok) << plain.reply.message;
  UserLaunchOptions options = launch({32, 8});
  options.counters = true;
  const UserStepRun counted = run_user_steps(worker(), k, initial, 5, options);
  ASSERT_EQ(counted.reply.outcome, RunOutcome::Ok) << counted.reply.message;
  EXPECT_TRUE(test::images_match(counted.state, plain.state, 0)) << "five steps, not six";
  EXPECT_EQ(counted.reply.kernel_ms.size(), 5u);
  const KernelCounters& c = counters_or_fail(counted.reply);
  EXPECT_GT(c.dram_bytes() + c.global_load_requests, 0);
}

}  // namespace
}  // namespace ks::usercode
