// The CPU stencils' SIMD path (Google Highway, CpuPath::Simd) against the scalar reference
// (CpuPath::Reference), on every instruction set this machine can run: its best one, those in between and the
// portable fallback (EMU128, or SCALAR where GCC < 12.3 makes Highway avoid EMU128), each forced in turn. U8
// must give the reference's bytes; F32 (summed in float, the reference in double) must stay within
// kF32Tolerance. Sizes that no vector width or group of rows divides, every border mode, 1 and 4 channels,
// thread chunks of odd lengths.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/simd/simd_target.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/stencil_case.hpp"
#include "support/test_support.hpp"
#include "test_stencil_cpu_reference.hpp"

namespace ks {
namespace {

using cpu::CpuPath;
using cpu::simd::ForcedSimdTarget;
using cpu::simd::SimdTarget;

// |simd - reference| <= kF32Tolerance * max(|reference|, 1): the F32 tolerance of the arithmetic contract
// between float and double sums, the one the CUDA variants (float sums) are held to as well. The error of a
// float sum grows with the sum of |terms|, not with the result: a convolution with weights up to 9 that
// cancel to about 1 differs by ~2e-6, a gaussian of values in 0..1 by ~1e-7.
constexpr double kF32Tolerance = 1e-5;

using Case = test::StencilCase;
using test::case_name;

StencilPlan plan_of(const Case& c, Border border, ElemType type) {
  ParamSet params = KernelRegistry::builtin().get(c.kernel).default_params();
  for (const char* p : c.params) params.set_assignment(p);
  StencilPlan plan = make_stencil_plan(c.kernel, params);
  plan.border = border;
  // Off the integers (U8 rounds it) and inside the F32 range.
  plan.border_value = type == ElemType::U8 ? 200.6f : 0.75f;
  return plan;
}

::testing::AssertionResult simd_matches_reference(const StencilPlan& plan, const Image& in,
                                                  ThreadPool& pool) {
  const Image simd = cpu::run_stencil(plan, in, pool, CpuPath::Simd);
  const Image reference = cpu::run_stencil(plan, in, pool, CpuPath::Reference);
  return test::images_match(simd, reference, in.type() == ElemType::U8 ? 0.0 : kF32Tolerance);
}

std::vector<SimdTarget> targets_under_test() {
  const std::vector<SimdTarget> targets = cpu::simd::runnable_simd_targets();
  EXPECT_FALSE(targets.empty());
  return targets;
}

class SimdPath : public ::testing::TestWithParam<Case> {};

TEST_P(SimdPath, MatchesTheReferenceOnEveryTarget) {
  const Case& c = GetParam();
  // One thread: the chunk is the whole image, summed in groups of four rows and then the rest (a pool splits
  // small images into chunks of a row or two; ThreadCountDoesNotChangeResults covers the split).
  ThreadPool pool(1);
  const struct { int w, h, channels; } shapes[] = {{1, 1, 1}, {1023, 7, 1}, {7, 1023, 1}, {67, 33, 4}};
  for (const SimdTarget& target : targets_under_test()) {
    const ForcedSimdTarget forced(target);
    ASSERT_EQ(cpu::simd::current_simd_target().name, target.name);
    std::uint32_t seed = 1;
    for (Border border :
         {Border::Replicate, Border::Reflect, Border::Reflect101, Border::Wrap, Border::Constant})
      for (ElemType type : {ElemType::U8, ElemType::F32})
        for (const auto& shape : shapes) {
          const Image in = test::random_image(shape.w, shape.h, shape.channels, type, seed++);
          EXPECT_TRUE(simd_matches_reference(plan_of(c, border, type), in, pool))
              << target.name << " " << to_string(border) << " " << to_string(type) << " " << shape.w << "x"
              << shape.h << "x" << shape.channels;
          if (HasFailure()) return;  // one failing combination says enough
        }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Stencils, SimdPath,
    ::testing::Values(Case{"box", {"radius=1"}}, Case{"box", {"radius=7"}}, Case{"gaussian", {"sigma=0.5"}},
                      Case{"gaussian", {"sigma=2"}}, Case{"gaussian", {"sigma=8"}},
                      Case{"sobel", {"output=magnitude"}}, Case{"sobel", {"output=dx"}},
                      Case{"sobel", {"output=dy"}}, Case{"laplacian", {"neighbours=4"}},
                      Case{"laplacian", {"neighbours=8"}}, Case{"sharpen", {"amount=1.5", "sigma=1"}},
                      Case{"sharpen", {"amount=3", "sigma=0.3"}}, Case{"median", {"radius=1"}},
                      Case{"median", {"radius=2"}}, Case{"median", {"radius=3"}},
                      Case{"convolve", {"matrix=1,2,1;2,4,2;1,2,1", "normalize=true"}},
                      Case{"convolve", {"matrix=0.1,-0.25,0.3,0.05,0.2"}},
                      Case{"convolve", {"matrix=1,-2,3;-4,5,-6;7,-8,9;2,2,2;-1,0,1"}}),
    [](const ::testing::TestParamInfo<Case>& info) { return case_name(info.param); });

// The SIMD path sums u8 filters whose sums fit int16 in int16 lanes (255 * sum of |weights| <= 32767) and the
// others in int32: filters on either side of that bound, on images that reach it (all 255, and 0/255
// columns that make the negative weights count), on the best target and the fallback.
TEST(SimdPath, U8SumsAtTheInt16Bound) {
  ThreadPool pool(1);
  Image white(37, 9, 1, ElemType::U8), columns(37, 9, 1, ElemType::U8);
  for (auto& v : white.elements<std::uint8_t>()) v = 255;
  for (std::size_t i = 0; i < columns.elements<std::uint8_t>().size(); ++i)
    columns.elements<std::uint8_t>()[i] = (i % 37) % 2 ? 255 : 0;
  const std::vector<std::pair<std::string, LinearFilter>> filters = {
      {"2-D, sum 128 (fits)", test::int_filter(1, 1, {16, 16, 16, 16, 0, 16, 16, 16, 16}, 1)},
      {"2-D, sum 129 (int32)", test::int_filter(1, 1, {16, 16, 16, 16, 1, 16, 16, 16, 16}, 1)},
      {"2-D, -64 +64 (fits)", test::int_filter(1, 0, {-64, 0, 64}, 1)},
      {"2-D, -65 +64 (int32)", test::int_filter(1, 0, {-65, 0, 64}, 1)},
      {"separable 8 x 16 (fits)", test::separable_int_filter({2, 4, 2}, 1, {4, 8, 4}, 1)},
      {"separable 8 x 17 (int32)", test::separable_int_filter({2, 4, 2}, 1, {4, 9, 4}, 1)},
      {"separable, row pass 129 (int32)", test::separable_int_filter({43, 43, 43}, 1, {1}, 1)},
  };
  const std::vector<SimdTarget> all = targets_under_test();
  for (const SimdTarget& target : {all.front(), all.back()}) {
    const ForcedSimdTarget forced(target);
    for (const auto& [name, f] : filters)
      for (const Image* in : {&white, &columns}) {
        StencilPlan plan = test::linear_plan(f, Border::Constant, 255.f);
        EXPECT_TRUE(simd_matches_reference(plan, *in, pool)) << target.name << " " << name;
        std::int64_t bound = 0;
        for (std::int32_t w : f.iw) bound += 255 * std::int64_t(w < 0 ? -w : w);
        if (2 * bound * bound > INT32_MAX) continue;       // a magnitude plan must keep a^2 + b^2 in int32
        plan.kind = StencilPlan::Kind::GradientMagnitude;  // a^2 + b^2 from the same sums
        plan.b = f;
        EXPECT_TRUE(simd_matches_reference(plan, *in, pool)) << target.name << " " << name << " magnitude";
      }
  }
}

// A larger image: many full vectors and groups of rows per chunk, the row blocks of the linear passes, and
// the gaussian's 49 x 49 window (the F32 sums that round most), on the best target.
TEST(SimdPathLarge, MatchesTheReferenceOnALargerImage) {
  ThreadPool pool(2);
  std::uint32_t seed = 900;
  for (const Case& c : {Case{"gaussian", {"sigma=8"}}, Case{"box", {"radius=1"}}, Case{"sobel", {}},
                        Case{"median", {"radius=1"}}, Case{"sharpen", {}}})
    for (ElemType type : {ElemType::U8, ElemType::F32}) {
      SCOPED_TRACE(case_name(c) + " " + to_string(type));
      const Image in = test::random_image(2531, 389, 1, type, seed++);
      EXPECT_TRUE(simd_matches_reference(plan_of(c, Border::Reflect101, type), in, pool));
    }
}

// The 3x3 median's formula (simd/median_rows.cpp) on every window of zeros and ones: by the 0-1 principle
// (min and max commute with monotone maps, as the median does) that covers every input. Each of the 512
// patterns sits in its own 3x3 block of a 3 x 1536 image, and the window centred on the block is exactly the
// pattern.
TEST(SimdPathMedian, SelectsTheMedianOfEveryZeroOneWindow) {
  ThreadPool pool(1);
  for (ElemType type : {ElemType::U8, ElemType::F32}) {
    Image in(3 * 512, 3, 1, type);
    for (int pattern = 0; pattern < 512; ++pattern)
      for (int bit = 0; bit < 9; ++bit) {
        const std::size_t i = std::size_t(bit / 3) * in.width() + std::size_t(3 * pattern + bit % 3);
        const bool one = (pattern >> bit) & 1;
        if (type == ElemType::U8)
          in.elements<std::uint8_t>()[i] = one ? 255 : 0;
        else
          in.elements<float>()[i] = one ? 1.f : 0.f;
      }
    StencilPlan plan;
    plan.kind = StencilPlan::Kind::Median;
    plan.median_radius = 1;
    for (const SimdTarget& target : targets_under_test()) {
      const ForcedSimdTarget forced(target);
      const Image out = cpu::run_stencil(plan, in, pool, CpuPath::Simd);
      for (int pattern = 0; pattern < 512; ++pattern) {
        const bool median_is_one = __builtin_popcount(unsigned(pattern)) >= 5;
        const std::size_t centre = std::size_t(in.width()) + std::size_t(3 * pattern + 1);
        const double got = type == ElemType::U8 ? out.elements<std::uint8_t>()[centre] / 255.0
                                                : double(out.elements<float>()[centre]);
        ASSERT_EQ(got, median_is_one ? 1.0 : 0.0)
            << target.name << " " << to_string(type) << " pattern " << pattern;
      }
    }
  }
}

// Runs on the best target in 1, 2 or 3 threads give the same bytes and floats: each output row is summed
// the same way wherever a chunk starts (groups of four rows, or fewer at a chunk's end).
TEST(SimdPath, ThreadCountDoesNotChangeResults) {
  ThreadPool one(1), two(2), three(3);
  std::uint32_t seed = 40;
  for (const Case& c : {Case{"gaussian", {"sigma=1.5"}}, Case{"sobel", {}}, Case{"laplacian", {}},
                        Case{"median", {"radius=2"}}})
    for (ElemType type : {ElemType::U8, ElemType::F32}) {
      SCOPED_TRACE(case_name(c) + " " + to_string(type));
      const StencilPlan plan = plan_of(c, Border::Reflect101, type);
      const Image in = test::random_image(301, 97, 1, type, seed++);
      const Image base = cpu::run_stencil(plan, in, one);
      EXPECT_TRUE(test::images_match(cpu::run_stencil(plan, in, two), base, 0.0));
      EXPECT_TRUE(test::images_match(cpu::run_stencil(plan, in, three), base, 0.0));
    }
}

TEST(SimdTarget, BestFirstFallbackLastAndForcingIsUndone) {
  const std::vector<SimdTarget> targets = cpu::simd::runnable_simd_targets();
  ASSERT_FALSE(targets.empty());
  for (std::size_t i = 1; i < targets.size(); ++i)
    EXPECT_LT(targets[i - 1].bits, targets[i].bits) << "Highway's better targets have lower bits";
  EXPECT_TRUE(targets.back().name == "EMU128" || targets.back().name == "SCALAR") << targets.back().name;
  EXPECT_EQ(cpu::simd::current_simd_target().name, targets.front().name);
  {
    const ForcedSimdTarget forced(targets.back());
    EXPECT_EQ(cpu::simd::current_simd_target().name, targets.back().name);
  }
  EXPECT_EQ(cpu::simd::current_simd_target().name, targets.front().name);
  EXPECT_NE(cpu::simd::simd_description().find(targets.front().name), std::string::npos);
  EXPECT_NE(cpu::simd::simd_description().find("Highway"), std::string::npos);
}

}  // namespace
}  // namespace ks
