// The gaussian's cpu_recursive variant (the recursive IIR Gaussian, stencil/recursive_gaussian.hpp) against the
// exact Gaussian (tests/support/exact_gaussian.hpp): on the embedded sample photograph-like image at several
// sigmas, on odd sizes in every border mode, f32 and u8, 1 and 4 channels; and through the engine and registry.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "assets.hpp"
#include "core/thread_pool.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/recursive_cpu.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "stencil/stencil_geometry.hpp"
#include "stencil/stencil_math.hpp"
#include "support/exact_gaussian.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

using test::gaussian_params;

Image recursive(const Image& in, double sigma, const std::string& border = "reflect101", double border_value = 0) {
  static ThreadPool pool(2);
  Image out(in.shape());
  cpu::run_recursive_gaussian(make_stencil_plan("gaussian", gaussian_params(sigma, border, border_value)), in, out,
                              pool);
  return out;
}

Image sample(int channels, ElemType type) {
  return convert_type(convert_channels(load_image_from_memory(embedded::sample_png(), "sample"), channels), type);
}

// The README's accuracy table: the largest difference from the exact Gaussian as a fraction of the value range,
// over the whole image (borders included) and 3 sigma or more from the edges.
TEST(StencilCpuRecursive, WithinHalfAPercentOfTheExactGaussianOnTheSample) {
  const Image gray = sample(1, ElemType::F32);
  const double range = test::value_range(gray);
  for (double sigma : {2.0, 4.0, 8.0, 16.0, 32.0, 64.0}) {
    SCOPED_TRACE("sigma " + std::to_string(sigma));
    const std::vector<double> exact = test::exact_gaussian(gray, sigma, Border::Reflect101, 0);
    const Image result = recursive(gray, sigma);
    const double inside = test::largest_difference(result, exact, int(std::ceil(3 * sigma))) / range;
    const double all = test::largest_difference(result, exact) / range;
    std::printf("sigma %5.1f: largest difference %.4f%% of the range away from the borders, %.4f%% anywhere\n",
                sigma, 100 * inside, 100 * all);
    EXPECT_LT(inside, 0.005);
    EXPECT_LT(all, 0.001);  // measured below 0.02%: the tests hold it to 0.1%
  }
}

// Against the kernel's own exact variant (cpu: the window out to 3 sigma, renormalised) at sigma 16, away from
// the borders: the target of 0.5% of the value range. Most of the difference is the window's truncation.
TEST(StencilCpuRecursive, WithinHalfAPercentOfTheWindowVariantAtSigma16) {
  static ThreadPool pool(2);
  const Image gray = sample(1, ElemType::F32);
  const double range = test::value_range(gray);
  const Image window = cpu::run_stencil(make_stencil_plan("gaussian", gaussian_params(16)), gray, pool);
  std::vector<double> expected(window.elements<float>().begin(), window.elements<float>().end());
  const double inside = test::largest_difference(recursive(gray, 16), expected, 48) / range;
  std::printf("sigma 16 against the 3-sigma window: largest difference %.4f%% of the range away from the borders\n",
              100 * inside);
  EXPECT_LT(inside, 0.005);
}

// The value the kernel reads outside the image for the constant border: u8 reads the parameter rounded.
double outside_value(ElemType type, double border_value) {
  return type == ElemType::U8 ? double(saturate_u8(float(border_value))) : border_value;
}

// Whether every element of `result` is within 0.1% of the range of the exact Gaussian (u8: plus the rounding to
// integers, so within one unit).
::testing::AssertionResult near_exact(const Image& in, const Image& result, double sigma, Border border,
                                      double border_value) {
  const std::vector<double> exact = test::exact_gaussian(in, sigma, border, outside_value(in.type(), border_value));
  const double range = in.type() == ElemType::U8 ? 255.0 : 1.0;
  const double tolerance = 0.001 * range + (in.type() == ElemType::U8 ? 0.5 : 0.0);
  const double worst = test::largest_difference(result, exact);
  if (worst <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "largest difference " << worst << " > " << tolerance;
}

// Odd sizes in every border mode, f32 and u8, 1 and 4 channels (support/exact_gaussian.hpp's sweep).
TEST(StencilCpuRecursive, EveryBorderModeOnOddSizes) {
  test::for_each_recursive_case(11, [](const test::RecursiveCase& c) {
    const Image result = recursive(c.in, c.sigma, c.border, c.border_value);
    EXPECT_TRUE(near_exact(c.in, result, c.sigma, border_from_string(c.border), c.border_value));
  });
}

// The sample in four channels and u8: every channel filtered on its own (as the other stencils do).
TEST(StencilCpuRecursive, SampleInFourChannelsAndU8) {
  for (ElemType type : {ElemType::U8, ElemType::F32}) {
    const Image rgba = sample(4, type);
    SCOPED_TRACE(to_string(type));
    EXPECT_TRUE(near_exact(rgba, recursive(rgba, 6, "reflect"), 6, Border::Reflect, 0));
  }
}

// A constant image stays constant in every mode but a constant border of another value (unit gain, and the
// passes' steady starts), to float precision even at sigma 64, where the poles are nearest 1.
TEST(StencilCpuRecursive, ConstantImagesStayConstant) {
  for (const char* border : {"reflect101", "reflect", "replicate", "wrap"})
    for (double sigma : {1.0, 64.0}) {
      Image in(301, 77, 1, ElemType::F32);
      for (float& v : in.elements<float>()) v = 0.625f;
      const Image out = recursive(in, sigma, border);
      for (float v : out.elements<float>()) ASSERT_NEAR(v, 0.625f, 1e-5) << border << " sigma " << sigma;
    }
}

// The parameter means what it means for the window variants: a point spreads with standard deviation sigma (the
// square root of its second moment).
TEST(StencilCpuRecursive, AnImpulseSpreadsWithTheRequestedSigma) {
  for (double sigma : {1.5, 10.0, 40.0}) {
    const int n = int(20 * sigma) | 1;
    Image in(n, 1, 1, ElemType::F32);
    in.elements<float>()[std::size_t(n / 2)] = 1.f;
    const Image out = recursive(in, sigma, "constant");
    double sum = 0, moment = 0;
    for (int x = 0; x < n; ++x) {
      const double v = out.elements<float>()[std::size_t(x)], d = x - n / 2;
      sum += v;
      moment += v * d * d;
    }
    // A 1-pixel-high image: the column pass with a constant border of 0 scales by the centre weight of the
    // vertical Gaussian; the shape along the row is what is checked.
    EXPECT_NEAR(std::sqrt(moment / sum), sigma, 0.01 * sigma) << "sigma " << sigma;
  }
}

// Through the registry and the engine: the variant runs on the CPU backend, refuses what it cannot do with a
// usage error that says what to use instead.
TEST(StencilCpuRecursive, RegistryAndEngine) {
  const KernelSpec& spec = KernelRegistry::builtin().get("gaussian");
  ASSERT_TRUE(spec.find_variant("cpu_recursive"));
  EXPECT_EQ(spec.find_variant("cpu_recursive")->backend, Backend::Cpu);
  ASSERT_TRUE(spec.find_variant("recursive"));
  EXPECT_EQ(spec.find_variant("recursive")->backend, Backend::Cuda);
  EXPECT_FALSE(spec.unavailable_reason("recursive", gaussian_params(2)));
  const auto small = spec.unavailable_reason("cpu_recursive", gaussian_params(0.5));
  ASSERT_TRUE(small);
  EXPECT_NE(small->find("use separable"), std::string::npos) << *small;
  ParamSet windowed = gaussian_params(4);
  windowed.set("radius", "9");
  const auto radius = spec.unavailable_reason("recursive", windowed);
  ASSERT_TRUE(radius);
  EXPECT_NE(radius->find("radius=0"), std::string::npos) << *radius;
  EXPECT_FALSE(KernelRegistry::builtin().get("box").find_variant("recursive"));

  Engine engine(Engine::Options{1});
  const Image gray = sample(1, ElemType::F32);
  StencilRequest req;
  req.kernel = "gaussian";
  req.backend = Backend::Cpu;
  req.variant = "cpu_recursive";
  req.params = gaussian_params(16);
  req.repeat = 1;
  req.warmup = 0;
  const StencilResult r = engine.run_stencil(gray, req);
  EXPECT_EQ(r.report.variant, "cpu_recursive");
  EXPECT_TRUE(test::images_match(r.output, recursive(gray, 16), 0));
  req.params = gaussian_params(0.5);
  EXPECT_NE(test::usage_error([&] { engine.run_stencil(gray, req); }).find("use separable"), std::string::npos);
  req.params = gaussian_params(2);
  req.variant = "recursive";  // the CUDA one on the CPU backend
  EXPECT_NE(test::usage_error([&] { engine.run_stencil(gray, req); }).find("--backend cuda"), std::string::npos);
}

// The launch overlay cannot draw the CUDA variant (its threads walk segments of lines, not tiles) and says so.
TEST(StencilCpuRecursive, LaunchOverlaySaysWhyItDrawsNothing) {
  const StencilPlan plan = make_stencil_plan("gaussian", gaussian_params(8));
  const StencilGeometry g = stencil_geometry(plan, "recursive", 640, 480, {32, 8}, ElemType::F32, 1);
  EXPECT_FALSE(g.geometry);
  EXPECT_NE(g.why_not.find("segment"), std::string::npos) << g.why_not;
  EXPECT_EQ(stencil_geometry(plan, "cpu_recursive", 640, 480, {32, 8}, ElemType::F32, 1).why_not,
            std::string(kCpuHasNoBlocks));
}

// The roofline holds the recursive variants to their own operations, not the window's taps: per element, rows
// and columns, each causal and anti-causal, two sections of a multiply and three multiply-adds a step (48 FMA
// operations, 8 multiplies), plus 3 adds a pass to sum the sections and the directions; the same at any sigma.
TEST(StencilCpuRecursive, CostsItsRecursionsWhateverTheSigma) {
  const KernelSpec& spec = KernelRegistry::builtin().get("gaussian");
  const ImageShape shape{33, 7, 4, ElemType::F32};
  const double elements = 33.0 * 7 * 4;
  for (const char* variant : {"recursive", "cpu_recursive"})
    for (double sigma : {2.0, 64.0}) {
      const ParamSet p = gaussian_params(sigma);
      const CostModel c = spec.cost_of(variant, shape, p);
      EXPECT_EQ(c.mix[OpKind::F32Fma], 48 * elements) << variant << " sigma " << sigma;
      EXPECT_EQ(c.mix[OpKind::F32One], 14 * elements) << variant << " sigma " << sigma;
      EXPECT_EQ(c.operations, std::uint64_t(62 * elements));
      EXPECT_EQ(c.bytes, spec.cost(shape, p).bytes);
    }
  // The window variants keep the kernel's cost, which grows with sigma.
  EXPECT_EQ(spec.cost_of("separable", shape, gaussian_params(8)).operations,
            spec.cost(shape, gaussian_params(8)).operations);
  EXPECT_LT(spec.cost_of("separable", shape, gaussian_params(2)).operations,
            spec.cost_of("separable", shape, gaussian_params(8)).operations);
}

}  // namespace
}  // namespace ks
