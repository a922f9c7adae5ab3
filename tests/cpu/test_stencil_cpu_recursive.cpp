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
#include "stencil/stencil_math.hpp"
#include "support/exact_gaussian.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

ParamSet gaussian_params(double sigma, const std::string& border = "reflect101", double border_value = 0) {
  ParamSet p = KernelRegistry::builtin().get("gaussian").default_params();
  p.set("sigma", std::to_string(sigma));
  p.set("border", border);
  p.set("border_value", std::to_string(border_value));
  return p;
}

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
    EXPECT_LT(all, 0.005);
  }
}

}  // namespace
}  // namespace ks
