// A user's own array kernel in the app's Lab (GPU machine; skipped without a device): it runs in the worker on the
// lab kernel's inputs, its run is kept like a variant's under the file's name (Timing, Roofline), the Lab's block
// applies, and the check against the lab kernel's CPU reference finds a right vecadd and reduce equal and wrong
// ones different where they are wrong, at sizes that are no multiple of the block. (A fault and an endless loop:
// tests/gpu_faults.)
#include <gtest/gtest.h>

#include <cstdlib>

#include "lab/lab_size.hpp"
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_compiled.hpp"
#include "support/user_kernel_sources.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::app {
namespace {

UserArrayChoice user_choice(const std::string& name, const std::string& source) {
  auto k = test::compiled_kernel(name, source);
  return {k, name, std::vector<double>(k->declarations.parameters.size())};
}

const LabDocument::UserCheck& run_and_check(Session& s, const UserArrayChoice& choice) {
  s.use_user_array_kernel(choice);  // runs at once
  s.wait_idle();
  EXPECT_FALSE(s.lab().last_error()) << s.lab().last_error()->full_message();
  EXPECT_TRUE(s.lab().user_check());
  return *s.lab().user_check();
}

const std::int64_t kOddSizes[] = {1, 1023, (std::int64_t{1} << 20) + 3};

TEST(SessionUserArrayCuda, AVecaddMatchesAndOneThatForgetsTheTailDiffersThere) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  s.select_kernel("vecadd");
  s.set_backend(Backend::Cuda);
  for (const std::int64_t n : kOddSizes) {
    SCOPED_TRACE(n);
    s.lab().set_size(lab::LabSize::elements(n));
    const LabDocument::UserCheck& right = run_and_check(s, user_choice("right.cu", test::kVecaddRight));
    EXPECT_TRUE(right.comparison.matches()) << usercode::comparison_summary(right.comparison);
    EXPECT_EQ(right.comparison.compared, std::size_t(n));
    EXPECT_EQ(right.reference, "vecadd:cpu");
    EXPECT_EQ(right.inputs, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(right.output, "c");
    ASSERT_TRUE(s.lab().last_run());
    const lab::LabReport& report = s.lab().last_run()->report;
    EXPECT_EQ(report.kernel, "vecadd");
    EXPECT_EQ(report.variant, "right.cu");
    EXPECT_EQ(report.backend, Backend::Cuda);
    EXPECT_TRUE(report.check.checked && report.check.agrees) << report.check.detail;
    EXPECT_GT(report.kernel_time.median_ms, 0);
    EXPECT_EQ(report.cost.bytes, std::uint64_t(3 * 4 * n));
    EXPECT_EQ(s.lab().run_for_request(), &s.lab().runs().back());  // kept, as the Roofline plots it

    const LabDocument::UserCheck& wrong = run_and_check(s, user_choice("tail.cu", test::kVecaddForgetsTheTail));
    EXPECT_FALSE(wrong.comparison.matches());
    EXPECT_EQ(wrong.comparison.differing, 1u);
    ASSERT_TRUE(wrong.comparison.first);
    EXPECT_EQ(wrong.comparison.first->index, std::size_t(n - 1));
    EXPECT_FALSE(s.lab().last_run()->report.check.agrees);
  }
  // The Lab's block applies: 128 threads, ceil(n / 128) blocks.
  s.set_block(BlockShape{128, 1});
  s.use_user_array_kernel(user_choice("right.cu", test::kVecaddRight));
  s.wait_idle();
  ASSERT_TRUE(s.lab().last_run());
  ASSERT_TRUE(s.lab().last_run()->report.block);
  EXPECT_EQ(s.lab().last_run()->report.block->x, 128);
  if (const auto& launch = s.lab().last_run()->report.launch) {
    EXPECT_EQ(launch->grid_x, ((std::int64_t{1} << 20) + 3 + 127) / 128);
  }
  // Back to the built-in: its own variant again.
  s.use_user_array_kernel(std::nullopt);
  s.run_now();
  EXPECT_NE(s.lab().last_run()->report.variant, "right.cu");
}

TEST(SessionUserArrayCuda, AReduceMatchesExactlyAndOnePaddingWithOnesDiffersByThePadding) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  s.select_kernel("reduce");
  s.set_backend(Backend::Cuda);
  s.set_param("distribution", "integers");  // integers in -1000..1000: every float sum of them is exact
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1023}, (std::int64_t{1} << 20) + 3, std::int64_t{1} << 20}) {
    SCOPED_TRACE(n);
    s.lab().set_size(lab::LabSize::elements(n));
    run_and_check(s, user_choice("sum.cu", test::kernel_template("reduce_sum.cu")));
    s.lab().set_user_tolerance({0, 0});
    ASSERT_TRUE(s.lab().user_check());
    EXPECT_TRUE(s.lab().user_check()->comparison.matches()) << usercode::comparison_summary(s.lab().user_check()->comparison);
    EXPECT_EQ(s.lab().user_check()->comparison.compared, 1u);
    EXPECT_EQ(s.lab().user_check()->output, "sum");

    run_and_check(s, user_choice("pads.cu", test::kReducePadsWithOne));
    s.lab().set_user_tolerance({0, 0});
    const usercode::Comparison& c = s.lab().user_check()->comparison;
    const std::int64_t padding = (n + 255) / 256 * 256 - n;  // the threads of the last block past n
    EXPECT_EQ(c.matches(), padding == 0) << usercode::comparison_summary(c);
    EXPECT_EQ(c.max_abs_diff, double(padding));
  }
}

}  // namespace
}  // namespace ks::app

namespace ks::app {
namespace {

// Checked against a built-in GPU variant instead of the CPU reference (the app's "check against"): a right vecadd
// agrees with each of vecadd's CUDA variants at an odd size, a wrong one differs at the element it gets wrong, and
// choosing another lab kernel goes back to the CPU reference.
TEST(SessionUserArrayCuda, TheCheckRunsAgainstTheBuiltInVariantTheUserPicks) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s;
  s.select_kernel("vecadd");
  s.set_backend(Backend::Cuda);
  const std::int64_t n = (std::int64_t{1} << 20) + 3;
  s.lab().set_size(lab::LabSize::elements(n));
  for (const char* variant : {"naive", "gridstride", "vector4"}) {
    SCOPED_TRACE(variant);
    s.lab().set_user_reference(variant);
    const LabDocument::UserCheck& right = run_and_check(s, user_choice("right.cu", test::kVecaddRight));
    EXPECT_EQ(right.reference, std::string("vecadd:") + variant);
    EXPECT_TRUE(right.comparison.matches()) << usercode::comparison_summary(right.comparison);
    EXPECT_EQ(right.comparison.compared, std::size_t(n));
    EXPECT_NE(s.lab().last_run()->report.check.detail.find(std::string("against vecadd:") + variant),
              std::string::npos)
        << s.lab().last_run()->report.check.detail;
  }
  const LabDocument::UserCheck& wrong = run_and_check(s, user_choice("tail.cu", test::kVecaddForgetsTheTail));
  EXPECT_EQ(wrong.reference, "vecadd:vector4");
  ASSERT_TRUE(wrong.comparison.first);
  EXPECT_EQ(wrong.comparison.first->index, std::size_t(n - 1));
  s.select_kernel("saxpy");
  EXPECT_EQ(s.lab().user_reference(), "cpu");
}

}  // namespace
}  // namespace ks::app
