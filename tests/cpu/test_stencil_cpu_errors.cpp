// What the CPU stencils refuse: images they do not take (usage errors) and plans that break the contract of
// stencil_plan.hpp (internal errors).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/test_support.hpp"
#include "test_stencil_cpu_reference.hpp"

namespace ks {
namespace {

// The kind of the Error `f` throws, and that its message mentions `word`.
::testing::AssertionResult throws_kind(const std::function<void()>& f, ErrorKind kind,
                                       const std::string& word) {
  try {
    f();
  } catch (const Error& e) {
    if (e.kind() != kind) return ::testing::AssertionFailure() << "wrong kind: " << e.full_message();
    if (std::string(e.what()).find(word) == std::string::npos)
      return ::testing::AssertionFailure() << "message lacks '" << word << "': " << e.full_message();
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "nothing thrown";
}

TEST(StencilCpuErrors, RefusesImagesItDoesNotTake) {
  ThreadPool pool(1);
  const StencilPlan box = test::linear_plan(test::box_filter(1));
  EXPECT_TRUE(throws_kind([&] { cpu::run_stencil(box, Image(4, 4, 1, ElemType::U16), pool); },
                          ErrorKind::Usage, "u16"));
  for (int channels : {2, 3})
    EXPECT_TRUE(throws_kind([&] { cpu::run_stencil(box, Image(4, 4, channels, ElemType::U8), pool); },
                            ErrorKind::Usage, std::to_string(channels)));
  EXPECT_TRUE(throws_kind([&] { cpu::run_stencil(box, Image(), pool); }, ErrorKind::Usage, "empty"));
  EXPECT_TRUE(throws_kind([&] { cpu::run_stencil(box, Image(5, 0, 1, ElemType::F32), pool); },
                          ErrorKind::Usage, "empty"));
}

TEST(StencilCpuErrors, RefusesPlansThatBreakTheContract) {
  ThreadPool pool(1);
  const Image u8(4, 4, 1, ElemType::U8), f32(4, 4, 1, ElemType::F32);

  StencilPlan short_weights = test::linear_plan(test::box_filter(1));
  short_weights.a.iw.pop_back();
  short_weights.a.w.pop_back();
  EXPECT_TRUE(
      throws_kind([&] { cpu::run_stencil(short_weights, u8, pool); }, ErrorKind::Internal, "weights"));
  EXPECT_TRUE(
      throws_kind([&] { cpu::run_stencil(short_weights, f32, pool); }, ErrorKind::Internal, "weights"));

  StencilPlan zero_divisor = test::linear_plan(test::box_filter(1));
  zero_divisor.a.divisor = 0;
  EXPECT_TRUE(throws_kind([&] { cpu::run_stencil(zero_divisor, u8, pool); }, ErrorKind::Internal, "divisor"));

  // 255 * 9 * 2^20 does not fit int32.
  const StencilPlan overflow =
      test::linear_plan(test::int_filter(1, 1, std::vector<std::int32_t>(9, 1 << 20), 1));
  EXPECT_TRUE(throws_kind([&] { cpu::run_stencil(overflow, u8, pool); }, ErrorKind::Internal, "overflow"));

  StencilPlan not_outer_product = test::linear_plan(test::box_filter(1));
  not_outer_product.a.iw[4] = 2;
  EXPECT_TRUE(throws_kind([&] { cpu::run_stencil(not_outer_product, u8, pool); }, ErrorKind::Internal,
                          "outer product"));

  StencilPlan magnitude;
  magnitude.kind = StencilPlan::Kind::GradientMagnitude;
  magnitude.a = test::box_filter(1);  // divisor 9: the U8 magnitude contract wants raw sums
  magnitude.b = test::box_filter(1);
  EXPECT_TRUE(throws_kind([&] { cpu::run_stencil(magnitude, u8, pool); }, ErrorKind::Internal, "divisor 1"));
}

}  // namespace
}  // namespace ks
