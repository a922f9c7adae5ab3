// run_stencil_into writes every element of a reused output: poison it first, the result must not change.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

TEST(StencilCpuInto, OverwritesEveryElementOfAReusedOutput) {
  ThreadPool pool(2);
  for (const char* id : {"box", "gaussian", "sobel", "laplacian", "sharpen", "median", "convolve"}) {
    const StencilPlan plan = make_stencil_plan(id, KernelRegistry::builtin().get(id).default_params());
    for (ElemType type : {ElemType::U8, ElemType::F32})
      for (int channels : {1, 4}) {
        SCOPED_TRACE(std::string(id) + " " + to_string(type) + " " + std::to_string(channels) + "ch");
        const Image in = test::random_image(37, 23, channels, type, 3);
        const Image expected = cpu::run_stencil(plan, in, pool);
        Image out = test::random_image(37, 23, channels, type, 99);  // stale content of an earlier run
        cpu::run_stencil_into(plan, in, out, pool);
        EXPECT_TRUE(test::images_match(out, expected, 0.0));
      }
  }
}

TEST(StencilCpuInto, RefusesAnOutputOfAnotherShape) {
  ThreadPool pool(1);
  const StencilPlan plan = make_stencil_plan("box", KernelRegistry::builtin().get("box").default_params());
  Image out(8, 9, 1, ElemType::U8);
  EXPECT_THROW(cpu::run_stencil_into(plan, test::random_image(9, 8, 1, ElemType::U8, 1), out, pool), Error);
}

}  // namespace
}  // namespace ks
