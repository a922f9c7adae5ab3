// Edit a copy (app/copies) on the GPU: each stencil copy, compiled by NVRTC and run in the worker process as a
// user's kernel, gives the output of the built-in variant it copies, run by the CUDA backend on the same image
// with the same block: u8 exactly, f32 within the check's default tolerance (rel 1e-5 + abs 1e-5, README "Your
// own kernel"), for every border mode, on odd sizes (1x1, 1023x7, 257x129), 1 and 4 channels, at each kernel's
// defaults and the parameters of tests/support/kernel_copy_cases.hpp. Blocks vary so that the tiled and separable
// copies also take their path for a block whose tile does not fit their shared memory (128x1 at a large radius).
// Life's copy, run as a step kernel for 25 steps, gives the state of the built-in naive variant after as many,
// cell for cell, on both borders and three rules; heat's copy after 25 steps gives the built-in naive variant's
// state bit for bit (both round each operation on its own), for every boundary; the vecadd and saxpy copies give
// a + b and std::fma(alpha, x, y), the CPU reference the built-ins equal bit for bit, on odd lengths and blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <span>

#include "copies/kernel_copy.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "sim/simulation.hpp"
#include "stencil/border.hpp"
#include "stencil/cuda/stencil_cuda.hpp"
#include "stencil/stencil_plan.hpp"
#include "support/kernel_copy_cases.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_runs.hpp"
#include "usercode/check/compare.hpp"
#include "usercode/check/comparison.hpp"
#include "usercode/check/tolerance.hpp"
#include "usercode/run/user_array.hpp"
#include "usercode/run/user_step.hpp"
#include "usercode/run/user_stencil.hpp"

namespace ks::usercode {
namespace {

using namespace test::user_kernels;

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

struct Shape {
  int width, height, channels;
  BlockShape block;
};
const Shape kShapes[] = {{1, 1, 4, {32, 8}}, {1023, 7, 1, {128, 1}}, {257, 129, 4, {16, 16}}};
const char* const kBorders[] = {"reflect101", "reflect", "replicate", "wrap", "constant"};

// The built-in simulation's naive variant from `start`, on the GPU with `block`.
Simulation builtin_naive(const std::string& kernel, const ParamSet& params, BlockShape block, const Image& start) {
  SimulationRequest r;
  r.kernel = kernel;
  r.params = params;
  r.backend = Backend::Cuda;
  r.variant = "naive";
  r.block = block;
  return Simulation(engine(), r, SimulationStart{.image = start});
}

TEST(KernelCopiesCuda, EachStencilCopyGivesItsBuiltInVariantsResult) {
  KS_REQUIRE_GPU();
  int compared = 0;
  for (const test::CopyCase& c : test::copy_cases()) {
    const KernelSpec& kernel = KernelRegistry::builtin().get(c.kernel);
    for (const VariantSpec& v : kernel.variants) {
      if (v.backend != Backend::Cuda) continue;
      for (const ElemType type : {ElemType::U8, ElemType::F32}) {
        ParamSet params = c.param_set();
        const copies::EditCopy edit = copies::edit_copy(kernel, v.name, params, type);
        if (!edit.copy) continue;  // tests/cpu/test_kernel_copies.cpp holds which variants have none
        SCOPED_TRACE(c.label() + " " + v.name + " " + to_string(type));
        const CompiledKernel k = compile(edit.copy->file_name, edit.copy->text, worker().hello().arch);
        ASSERT_TRUE(k.ok());
        // The sharpen's declared amount, at the value the copy was made with.
        std::vector<double> declared;
        for (const DeclaredParameter& p : k.declarations.parameters) declared.push_back(p.value);
        for (const Shape& s : kShapes) {
          const Image input = test::random_image(s.width, s.height, s.channels, type, 11 + s.width);
          for (const char* border : kBorders) {
            SCOPED_TRACE(std::to_string(s.width) + "x" + std::to_string(s.height) + " " +
                         std::to_string(s.channels) + "ch " + border + " block " + to_string(s.block));
            params.set("border", border);
            // Off the integers on u8: both round it to 201 (run_user_stencil as the built-ins' contract says).
            params.set("border_value", type == ElemType::U8 ? "200.6" : "0.75");
            const StencilPlan plan = make_stencil_plan(c.kernel, params);
            const cuda::StencilRun builtin = cuda::run_stencil(engine().cuda(), plan, v.name, input, s.block, 0, 1);
            const UserStencilRun mine =
                run_user_stencil(worker(), k, input, static_cast<int>(border_from_string(border)),
                                 params.get_float("border_value"), launch({unsigned(s.block.x), unsigned(s.block.y)}, declared));
            ASSERT_EQ(mine.reply.outcome, RunOutcome::Ok) << mine.reply.message;
            const Comparison cmp = compare_images(mine.output, builtin.output, default_tolerance(type));
            EXPECT_TRUE(cmp.matches()) << comparison_summary(cmp);
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
}

TEST(KernelCopiesCuda, LifesCopyStepsLikeTheBuiltInNaiveVariant) {
  KS_REQUIRE_GPU();
  constexpr int kSteps = 25;
  const KernelSpec& life = KernelRegistry::builtin().get("life");
  for (const char* border : {"torus", "dead"}) {
    for (const char* rule : {"B3/S23", "B36/S23", "B2/S"}) {
      ParamSet params = life.default_params();
      params.set("border", border);
      params.set("rule", rule);
      const copies::EditCopy edit = copies::edit_copy(life, "naive", params, ElemType::U8);
      ASSERT_TRUE(edit.copy) << edit.reason;
      const CompiledKernel k = compile(edit.copy->file_name, edit.copy->text, worker().hello().arch);
      ASSERT_TRUE(k.ok());
      for (const Shape& s : kShapes) {
        SCOPED_TRACE(std::string(border) + " " + rule + " " + std::to_string(s.width) + "x" +
                     std::to_string(s.height) + " block " + to_string(s.block));
        // About a third of the cells alive, as 255 (how the built-in stores a live cell).
        Image start = test::random_image(s.width, s.height, 1, ElemType::U8, 5 + s.height);
        for (auto& v : start.elements<std::uint8_t>()) v = v < 90 ? 255 : 0;
        Simulation builtin = builtin_naive("life", params, s.block, start);
        builtin.step(kSteps);
        const UserStepRun mine =
            run_user_steps(worker(), k, start, kSteps, launch({unsigned(s.block.x), unsigned(s.block.y)}));
        ASSERT_EQ(mine.reply.outcome, RunOutcome::Ok) << mine.reply.message;
        const Comparison cmp = compare_images(mine.state, builtin.fields().at(0), default_tolerance(ElemType::U8));
        EXPECT_TRUE(cmp.matches()) << comparison_summary(cmp);
      }
    }
  }
}

TEST(KernelCopiesCuda, HeatsCopyStepsLikeTheBuiltInNaiveVariantBitForBit) {
  KS_REQUIRE_GPU();
  constexpr int kSteps = 25;
  const KernelSpec& heat = KernelRegistry::builtin().get("heat");
  for (const char* boundary : {"insulated", "periodic", "fixed"}) {
    ParamSet params = heat.default_params();
    params.set("boundary", boundary);
    params.set("boundary_value", "0.7");
    params.set("diffusivity", "0.9");  // r = 0.9 * 0.2: not a float of few bits
    const copies::EditCopy edit = copies::edit_copy(heat, "naive", params, ElemType::F32);
    ASSERT_TRUE(edit.copy) << edit.reason;
    const CompiledKernel k = compile(edit.copy->file_name, edit.copy->text, worker().hello().arch);
    ASSERT_TRUE(k.ok());
    ASSERT_EQ(k.declarations.parameters.size(), 1u);
    const double r = k.declarations.parameters[0].value;  // the declared default: the built-in's r
    for (const Shape& s : kShapes) {
      SCOPED_TRACE(std::string(boundary) + " " + std::to_string(s.width) + "x" + std::to_string(s.height) +
                   " block " + to_string(s.block));
      const Image start = test::random_image(s.width, s.height, 1, ElemType::F32, 17 + s.width);
      Simulation builtin = builtin_naive("heat", params, s.block, start);
      ASSERT_TRUE(test::images_match(builtin.fields().at(0), start, 0)) << "the built-in starts from the image as it is";
      builtin.step(kSteps);
      const UserStepRun mine =
          run_user_steps(worker(), k, start, kSteps, launch({unsigned(s.block.x), unsigned(s.block.y)}, {r}));
      ASSERT_EQ(mine.reply.outcome, RunOutcome::Ok) << mine.reply.message;
      const Comparison cmp = compare_images(mine.state, builtin.fields().at(0), Tolerance{0, 0});
      EXPECT_TRUE(cmp.matches()) << comparison_summary(cmp);
    }
  }
}

TEST(KernelCopiesCuda, VecaddAndSaxpyCopiesGiveTheReferenceBitForBit) {
  KS_REQUIRE_GPU();
  for (const char* id : {"vecadd", "saxpy"}) {
    const KernelSpec& kernel = KernelRegistry::builtin().get(id);
    ParamSet params = kernel.default_params();
    if (std::string(id) == "saxpy") params.set("alpha", "-0.37");
    for (const char* variant : {"naive", "gridstride", "vector4"}) {
      const copies::EditCopy edit = copies::edit_copy(kernel, variant, params, ElemType::F32);
      ASSERT_TRUE(edit.copy) << edit.reason;
      const CompiledKernel k = compile(edit.copy->file_name, edit.copy->text, worker().hello().arch);
      ASSERT_TRUE(k.ok());
      std::vector<double> declared;
      for (const DeclaredParameter& p : k.declarations.parameters) declared.push_back(p.value);
      for (const std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(1023), std::size_t(100003)}) {
        for (const unsigned block : {32u, 256u, 1024u}) {
          SCOPED_TRACE(std::string(id) + " " + variant + " n " + std::to_string(n) + " block " + std::to_string(block));
          std::mt19937 rng(unsigned(n) + block);
          std::uniform_real_distribution<float> dist(-1.f, 1.f);
          std::vector<float> x(n), y(n);
          for (std::size_t i = 0; i < n; ++i) x[i] = dist(rng), y[i] = dist(rng);
          const UserArrayRun run = run_user_array(worker(), k, {std::as_bytes(std::span(x)), std::as_bytes(std::span(y))},
                                                  n, launch({block, 1}, declared));
          ASSERT_EQ(run.reply.outcome, RunOutcome::Ok) << run.reply.message;
          ASSERT_EQ(run.output.size(), n * sizeof(float));
          const float alpha = std::string(id) == "saxpy" ? float(params.get_float("alpha")) : 0.f;
          std::size_t differing = 0;
          for (std::size_t i = 0; i < n; ++i) {
            float got;
            std::memcpy(&got, run.output.data() + i * sizeof(float), sizeof(float));
            const float expected = std::string(id) == "vecadd" ? x[i] + y[i] : std::fma(alpha, x[i], y[i]);
            differing += got != expected;
          }
          EXPECT_EQ(differing, 0u);
        }
      }
    }
  }
}

}  // namespace
}  // namespace ks::usercode
