// A user's array kernel on the basics lab's inputs (inputs/lab_user_inputs.hpp), no GPU: which lab kernels fit
// which kernel forms and why the others do not (in words that name the fitting ones), which arrays the kernel's
// in1, in2, ... get, that those are the very arrays the built-in runs on, and the built-in's run as the reference
// (its output checked here against values computed from the inputs).
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "engine/engine.hpp"
#include "inputs/lab_user_inputs.hpp"
#include "registry/registry.hpp"
#include "support/test_support.hpp"

namespace ks::inputs {
namespace {

using usercode::ArrayForm;

const ArrayForm kTwoFloatsToArray{DType::F32, 2, false};
const ArrayForm kOneFloatToScalar{DType::F32, 1, true};
const ArrayForm kOneFloatToArray{DType::F32, 1, false};

const KernelSpec& spec(const std::string& id) { return KernelRegistry::builtin().get(id); }

LabFit fit(const std::string& id, const ArrayForm& form) { return fit_lab_kernel(spec(id), spec(id).default_params(), form); }

ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

TEST(LabUserInputs, TheElementwiseKernelsMapTheirArraysInOrder) {
  const LabFit vecadd = fit("vecadd", kTwoFloatsToArray);
  ASSERT_TRUE(vecadd.mapping) << vecadd.why_not;
  EXPECT_EQ(vecadd.mapping->inputs, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(vecadd.mapping->output, "c");
  EXPECT_FALSE(vecadd.mapping->scalar);
  const LabFit saxpy = fit("saxpy", kTwoFloatsToArray);
  ASSERT_TRUE(saxpy.mapping) << saxpy.why_not;
  EXPECT_EQ(saxpy.mapping->inputs, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(saxpy.mapping->output, "y");  // y as the built-in leaves it
  const LabFit reduce = fit("reduce", kOneFloatToScalar);
  ASSERT_TRUE(reduce.mapping) << reduce.why_not;
  EXPECT_EQ(reduce.mapping->inputs, (std::vector<std::string>{"x"}));
  EXPECT_EQ(reduce.mapping->output, "sum");
  EXPECT_TRUE(reduce.mapping->scalar);
  const LabFit sort = fit("sort", ArrayForm{DType::U32, 1, false});
  ASSERT_TRUE(sort.mapping) << sort.why_not;
  EXPECT_EQ(sort.mapping->output, "keys");
  // A double kernel takes the lab's float arrays widened; reduce's f64 sum is checked against a float kernel.
  EXPECT_TRUE(fit("vecadd", ArrayForm{DType::F64, 2, false}).mapping);
  ParamSet f64 = spec("reduce").default_params();
  f64.set("accumulate", "f64");
  EXPECT_TRUE(fit_lab_kernel(spec("reduce"), f64, kOneFloatToScalar).mapping);
}

TEST(LabUserInputs, KernelsThatDoNotFitSayWhy) {
  EXPECT_EQ(fit("matmul", kTwoFloatsToArray).why_not, "matmul takes matrices (MxNxK), not arrays of n elements");
  EXPECT_EQ(fit("integrate2d", kOneFloatToScalar).why_not, "integrate2d takes an NxM grid, not arrays of n elements");
  EXPECT_EQ(fit("kmeans", kOneFloatToArray).why_not, "kmeans takes the loaded image, not arrays of n elements");
  EXPECT_EQ(fit("reduce", kTwoFloatsToArray).why_not, "reduce takes 1 input array (x), your kernel 2");
  EXPECT_EQ(fit("vecadd", kOneFloatToScalar).why_not, "vecadd takes 2 input arrays (a, b), your kernel 1");
  EXPECT_NE(fit("reduce", kOneFloatToArray).why_not.find("reduce makes one value (sum); your kernel writes an array"),
            std::string::npos);
  EXPECT_EQ(fit("vecadd", ArrayForm{DType::I32, 2, false}).why_not, "vecadd's arrays are float; your kernel takes int");
  EXPECT_EQ(fit("sort", kOneFloatToArray).why_not, "sort's arrays are unsigned int; your kernel takes float");
  ParamSet pairs = spec("sort").default_params();
  pairs.set("payload", "pairs");
  EXPECT_EQ(fit_lab_kernel(spec("sort"), pairs, ArrayForm{DType::U32, 2, false}).why_not,
            "sort changes 2 arrays (keys, values); an array kernel writes one");
  EXPECT_EQ(fit_lab_kernel(spec("box"), spec("box").default_params(), kTwoFloatsToArray).why_not,
            "box is a stencil kernel, not a lab kernel");
}

TEST(LabUserInputs, TheFittingKernelsAreFoundAndNamedInTheRefusal) {
  EXPECT_EQ(fitting_lab_kernels(kTwoFloatsToArray), (std::vector<std::string>{"vecadd", "saxpy"}));
  EXPECT_EQ(fitting_lab_kernels(kOneFloatToScalar), (std::vector<std::string>{"reduce"}));
  EXPECT_TRUE(fitting_lab_kernels(kOneFloatToArray).empty());

  const std::string e = test::usage_error([&] {
    lab_array_mapping(spec("matmul"), spec("matmul").default_params(), kTwoFloatsToArray);
  });
  EXPECT_EQ(e, "matmul takes matrices (MxNxK), not arrays of n elements; of the lab kernels, vecadd and saxpy fit "
               "your kernel (2 float inputs to an array of n)");

  // The chosen one where it fits, else the first that fits its input count; none: every kernel's reason.
  EXPECT_EQ(lab_kernel_for(kTwoFloatsToArray, &spec("saxpy"), nullptr).id, "saxpy");
  EXPECT_EQ(lab_kernel_for(kTwoFloatsToArray, &spec("reduce"), nullptr).id, "vecadd");
  EXPECT_EQ(lab_kernel_for(kOneFloatToScalar, &spec("matmul"), nullptr).id, "reduce");
  EXPECT_EQ(lab_kernel_for(kOneFloatToScalar, nullptr, nullptr).id, "reduce");
  const std::string none = test::usage_error([&] { lab_kernel_for(kOneFloatToArray, &spec("vecadd"), nullptr); });
  EXPECT_NE(none.find("no lab kernel takes 1 float input to an array of n"), std::string::npos) << none;
  EXPECT_NE(none.find("vecadd takes 2 input arrays (a, b), your kernel 1"), std::string::npos) << none;
  EXPECT_NE(none.find("matmul takes matrices"), std::string::npos) << none;
}

TEST(LabUserInputs, TheKernelGetsTheArraysTheBuiltInRunsOn) {
  Engine engine(Engine::Options{2});
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1023}, (std::int64_t{1} << 16) + 3}) {
    SCOPED_TRACE(n);
    const KernelSpec& vecadd = spec("vecadd");
    const LabArrayMapping m = lab_array_mapping(vecadd, vecadd.default_params(), kTwoFloatsToArray);
    const std::vector<NdArray> in = lab_inputs(vecadd, lab::LabSize::elements(n), vecadd.default_params(), 7,
                                               pool(), m);
    ASSERT_EQ(in.size(), 2u);
    // What `kernelscope-cli lab vecadd --seed 7 --out a=... --out b=...` would hand out.
    lab::LabRequest own;
    own.kernel = "vecadd";
    own.size = lab::LabSize::elements(n);
    own.params = vecadd.default_params();
    own.seed = 7;
    own.check = false;
    own.repeat = 1;
    own.keep = {"a", "b"};
    const lab::LabResult built_in = lab::run_lab(engine, own);
    ASSERT_EQ(built_in.arrays.size(), 2u);
    EXPECT_EQ(in[0].name, "a");
    EXPECT_EQ(in[0].data, built_in.arrays[0].data);
    EXPECT_EQ(in[1].data, built_in.arrays[1].data);

    // The reference is c = a + b of those arrays.
    const LabReference ref = run_lab_reference(engine, vecadd, "cpu", lab::LabSize::elements(n),
                                               vecadd.default_params(), 7, m, in, DType::F32);
    EXPECT_EQ(ref.label, "vecadd:cpu");
    ASSERT_EQ(ref.output.count(), n);
    for (std::int64_t i = 0; i < n; ++i)
      ASSERT_EQ(ref.output.as<float>()[std::size_t(i)], in[0].as<float>()[std::size_t(i)] + in[1].as<float>()[std::size_t(i)]) << i;
  }
}

TEST(LabUserInputs, GivenArraysReplaceTheFilledOnesAndTheReduceReferenceIsTheirSum) {
  Engine engine(Engine::Options{2});
  const KernelSpec& reduce = spec("reduce");
  const LabArrayMapping m = lab_array_mapping(reduce, reduce.default_params(), kOneFloatToScalar);
  NdArray x;
  x.name = "x";
  x.type = DType::F32;
  x.shape = {1025};
  x.data.resize(1025 * 4);
  for (std::size_t i = 0; i < 1025; ++i) x.as<float>()[i] = float(i % 7) - 3.0f;
  double exact = 0;
  for (float v : x.as<float>()) exact += v;
  const std::vector<NdArray> in =
      lab_inputs(reduce, lab::LabSize::elements(1025), reduce.default_params(), 1, pool(), m, {x});
  ASSERT_EQ(in.size(), 1u);
  EXPECT_EQ(in[0].data, x.data);
  // A double kernel gets the same values widened, and a double reference.
  const NdArray wide = as_element_type(in[0], DType::F64);
  for (std::size_t i = 0; i < 1025; ++i) ASSERT_EQ(wide.as<double>()[i], double(x.as<float>()[i]));
  const LabReference ref = run_lab_reference(engine, reduce, "cpu", lab::LabSize::elements(1025),
                                             reduce.default_params(), 1, m, in, DType::F64);
  ASSERT_EQ(ref.output.count(), 1);
  EXPECT_EQ(ref.output.as<double>()[0], exact);

  NdArray wrong = x;
  wrong.type = DType::F64;
  wrong.data.resize(1025 * 8);
  const std::string e = test::usage_error(
      [&] { lab_inputs(reduce, lab::LabSize::elements(1025), reduce.default_params(), 1, pool(), m, {wrong}); });
  EXPECT_NE(e.find("reduce's `x` is 1025 f32 values; the array given for it holds 1025 f64 values"),
            std::string::npos)
      << e;
}

}  // namespace
}  // namespace ks::inputs
