// The CPU stencil's two linear paths (separable two-pass, direct 2-D window) and its threading must not
// change results: U8 bit-exact (integer sums), F32 within double rounding. Also: 4-channel images are 4
// independent 1-channel images.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/test_support.hpp"
#include "test_stencil_cpu_reference.hpp"

namespace ks {
namespace {

StencilPlan registry_plan(const std::string& id, const std::vector<std::string>& assignments) {
  ParamSet p = KernelRegistry::builtin().get(id).default_params();
  for (const auto& a : assignments) p.set_assignment(a);
  return make_stencil_plan(id, p);
}

// The same plan with every linear part forced onto the 2-D path.
StencilPlan without_separable(StencilPlan plan) {
  plan.a.separable.reset();
  plan.b.separable.reset();
  return plan;
}

std::vector<std::pair<std::string, StencilPlan>> separable_plans() {
  std::vector<std::pair<std::string, StencilPlan>> plans;
  for (int r : {1, 2, 5})
    plans.emplace_back("box r=" + std::to_string(r), test::linear_plan(test::box_filter(r)));
  plans.emplace_back("gaussian sigma 1.5", registry_plan("gaussian", {"sigma=1.5"}));
  plans.emplace_back("sobel dx", registry_plan("sobel", {"output=dx"}));
  plans.emplace_back("sobel magnitude", registry_plan("sobel", {"output=magnitude"}));
  plans.emplace_back("sharpen", registry_plan("sharpen", {"amount=1.5"}));
  plans.emplace_back("uneven 5x3",
                     test::linear_plan(test::separable_int_filter({1, 4, 2, 3, 1}, 11, {2, -1, 3}, 4)));
  return plans;
}

TEST(StencilCpuPaths, SeparableEqualsTwoDimensional) {
  ThreadPool pool(2);
  const int sizes[][2] = {{1, 1}, {3, 5}, {1023, 7}, {257, 129}};
  std::uint32_t seed = 1000;
  for (const auto& [name, base] : separable_plans()) {
    for (const auto& size : sizes) {
      for (ElemType type : {ElemType::U8, ElemType::F32}) {
        const Image in = test::random_image(size[0], size[1], 1, type, seed++);
        for (Border border : test::all_borders()) {
          SCOPED_TRACE(name + " " + std::to_string(size[0]) + "x" + std::to_string(size[1]) + " " +
                       to_string(type) + " " + to_string(border));
          StencilPlan plan = base;
          plan.border = border;
          plan.border_value = type == ElemType::U8 ? 200.f : 0.8f;
          ASSERT_TRUE(plan.separable());
          const Image two_pass = cpu::run_stencil(plan, in, pool);
          const Image direct = cpu::run_stencil(without_separable(plan), in, pool);
          EXPECT_TRUE(test::images_match(two_pass, direct, 1e-6));
        }
      }
    }
  }
}

// Rows are split into chunks per thread, each with its own ring of rows: the split must not show.
TEST(StencilCpuPaths, ThreadCountDoesNotChangeResults) {
  ThreadPool one(1), three(3);
  const Image u8 = test::random_image(131, 97, 4, ElemType::U8, 77);
  const Image f32 = test::random_image(131, 97, 1, ElemType::F32, 78);
  for (const auto& [name, plan] : separable_plans()) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(test::images_match(cpu::run_stencil(plan, u8, three), cpu::run_stencil(plan, u8, one), 0.0));
    EXPECT_TRUE(
        test::images_match(cpu::run_stencil(plan, f32, three), cpu::run_stencil(plan, f32, one), 0.0));
    const StencilPlan direct = without_separable(plan);
    EXPECT_TRUE(
        test::images_match(cpu::run_stencil(direct, u8, three), cpu::run_stencil(direct, u8, one), 0.0));
  }
  StencilPlan median;
  median.kind = StencilPlan::Kind::Median;
  median.median_radius = 2;
  EXPECT_TRUE(
      test::images_match(cpu::run_stencil(median, u8, three), cpu::run_stencil(median, u8, one), 0.0));
}

TEST(StencilCpuChannels, FourChannelsAreFourIndependentImages) {
  ThreadPool pool(2);
  std::vector<std::pair<std::string, StencilPlan>> plans{
      {"box", registry_plan("box", {"radius=2"})},
      {"gaussian", registry_plan("gaussian", {})},
      {"sobel magnitude", registry_plan("sobel", {})},
      {"laplacian", registry_plan("laplacian", {})},
      {"sharpen", registry_plan("sharpen", {})},
      {"median", registry_plan("median", {"radius=2"})},
      {"convolve", registry_plan("convolve", {})},
      {"uneven 2-D",
       test::linear_plan(test::int_filter(2, 1, {1, 2, 3, 4, 5, 6, -7, 8, 9, 10, 11, 12, 13, 14, 15}, 90))},
  };
  std::uint32_t seed = 500;
  for (auto& [name, plan] : plans) {
    for (ElemType type : {ElemType::U8, ElemType::F32}) {
      for (Border border : {Border::Reflect101, Border::Constant, Border::Wrap}) {
        SCOPED_TRACE(name + " " + to_string(type) + " " + to_string(border));
        plan.border = border;
        plan.border_value = type == ElemType::U8 ? 99.f : 0.25f;
        const Image in = test::random_image(33, 17, 4, type, seed++);
        const Image out = cpu::run_stencil(plan, in, pool);
        for (int c = 0; c < 4; ++c) {
          const Image alone = cpu::run_stencil(plan, test::channel_of(in, c), pool);
          EXPECT_TRUE(test::images_match(test::channel_of(out, c), alone, 0.0)) << "channel " << c;
        }
      }
    }
  }
}

}  // namespace
}  // namespace ks
