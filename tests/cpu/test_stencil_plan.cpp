// Plans: the weights every backend executes. Expected values are computed here from the definitions.
#include <cmath>
#include <numeric>

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "registry/registry.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks {
namespace {

ParamSet params_for(const std::string& id, std::initializer_list<const char*> assignments = {}) {
  ParamSet p = KernelRegistry::builtin().get(id).default_params();
  for (const char* a : assignments) p.set_assignment(a);
  return p;
}

void expect_exact_outer_product(const LinearFilter& f) {
  ASSERT_TRUE(f.separable);
  const auto& s = *f.separable;
  ASSERT_EQ(int(s.iwx.size()), f.width());
  ASSERT_EQ(int(s.iwy.size()), f.height());
  for (int y = 0; y < f.height(); ++y)
    for (int x = 0; x < f.width(); ++x) {
      EXPECT_EQ(f.iw[y * f.width() + x], s.iwy[y] * s.iwx[x]);
      EXPECT_NEAR(f.w[y * f.width() + x], s.wy[y] * s.wx[x], 1e-7);
    }
}

TEST(StencilPlan, BoxIsAnExactMean) {
  StencilPlan p = make_stencil_plan("box", params_for("box", {"radius=2"}));
  EXPECT_EQ(p.kind, StencilPlan::Kind::Linear);
  EXPECT_EQ(p.a.width(), 5);
  EXPECT_EQ(p.a.divisor, 25);
  for (int w : p.a.iw) EXPECT_EQ(w, 1);
  for (float w : p.a.w) EXPECT_NEAR(w, 1.0 / 25, 1e-8);
  expect_exact_outer_product(p.a);
}

TEST(StencilPlan, GaussianRadiusDefaultsToThreeSigma) {
  EXPECT_EQ(make_stencil_plan("gaussian", params_for("gaussian", {"sigma=8"})).a.rx, 24);
  EXPECT_EQ(make_stencil_plan("gaussian", params_for("gaussian", {"sigma=0.5"})).a.rx, 2);
  EXPECT_EQ(make_stencil_plan("gaussian", params_for("gaussian", {"sigma=2", "radius=3"})).a.rx, 3);
}

TEST(StencilPlan, GaussianWeightsFollowTheDefinition) {
  const double sigma = 1.5;
  StencilPlan p = make_stencil_plan("gaussian", params_for("gaussian", {"sigma=1.5"}));
  const auto& s = *p.a.separable;
  const int r = p.a.rx;
  double norm = 0;
  for (int i = -r; i <= r; ++i) norm += std::exp(-i * i / (2 * sigma * sigma));
  for (int i = -r; i <= r; ++i) EXPECT_NEAR(s.wx[i + r], std::exp(-i * i / (2 * sigma * sigma)) / norm, 1e-7);
  // Fixed point: each axis sums to exactly 2^11, the window to the divisor.
  EXPECT_EQ(std::accumulate(s.iwx.begin(), s.iwx.end(), 0), 2048);
  EXPECT_EQ(std::accumulate(p.a.iw.begin(), p.a.iw.end(), 0), p.a.divisor);
  EXPECT_EQ(p.a.divisor, 1 << 22);
  expect_exact_outer_product(p.a);
}

TEST(StencilPlan, SobelDerivatives) {
  StencilPlan dx = make_stencil_plan("sobel", params_for("sobel", {"output=dx"}));
  EXPECT_EQ(dx.kind, StencilPlan::Kind::Linear);
  EXPECT_EQ(dx.a.iw, (std::vector<std::int32_t>{-1, 0, 1, -2, 0, 2, -1, 0, 1}));
  StencilPlan dy = make_stencil_plan("sobel", params_for("sobel", {"output=dy"}));
  EXPECT_EQ(dy.a.iw, (std::vector<std::int32_t>{-1, -2, -1, 0, 0, 0, 1, 2, 1}));
  StencilPlan mag = make_stencil_plan("sobel", params_for("sobel"));
  EXPECT_EQ(mag.kind, StencilPlan::Kind::GradientMagnitude);
  EXPECT_EQ(mag.a.iw, dx.a.iw);
  EXPECT_EQ(mag.b.iw, dy.a.iw);
  EXPECT_TRUE(mag.separable());
}

TEST(StencilPlan, LaplacianIsNotSeparable) {
  StencilPlan p = make_stencil_plan("laplacian", params_for("laplacian"));
  EXPECT_EQ(p.a.iw, (std::vector<std::int32_t>{0, 1, 0, 1, -4, 1, 0, 1, 0}));
  EXPECT_FALSE(p.separable());
  EXPECT_EQ(make_stencil_plan("laplacian", params_for("laplacian", {"neighbours=8"})).a.iw[4], -8);
}

TEST(StencilPlan, ConvolveIntegerWeightsStayExact) {
  StencilPlan p = make_stencil_plan("convolve", params_for("convolve", {"matrix=1,2,1;2,4,2;1,2,1", "normalize=true"}));
  EXPECT_EQ(p.a.divisor, 16);
  EXPECT_EQ(p.a.iw[4], 4);
  EXPECT_NEAR(p.a.w[4], 0.25, 1e-8);
}

TEST(StencilPlan, ConvolveFractionalWeightsUseFixedPoint) {
  StencilPlan p = make_stencil_plan("convolve", params_for("convolve", {"matrix=0.1,0.2,0.1"}));
  EXPECT_EQ(p.a.rx, 1);
  EXPECT_EQ(p.a.ry, 0);
  EXPECT_EQ(p.a.divisor, 1 << 16);
  EXPECT_EQ(p.a.iw[1], std::lround(0.2 * 65536));
}

// Rank-1 matrices separate with exact integer factors (u8 stays bit-identical), others do not.
TEST(StencilPlan, ConvolveDetectsRankOneExactly) {
  auto plan = [](const char* m, bool normalize = false) {
    return make_stencil_plan("convolve", params_for("convolve", {m, normalize ? "normalize=true" : "normalize=false"}));
  };
  const StencilPlan binomial = plan("matrix=1,2,1;2,4,2;1,2,1", true);
  expect_exact_outer_product(binomial.a);
  EXPECT_EQ(binomial.a.separable->iwx, (std::vector<std::int32_t>{1, 2, 1}));
  EXPECT_EQ(binomial.a.divisor, 16);
  // Zero rows, negative entries, rows that are fractions of the first (2/3 of it: the integer row is the first
  // divided by the gcd of its entries, so the factors stay integers)...
  expect_exact_outer_product(plan("matrix=0,0,0;-2,4,-6;1,-2,3").a);
  expect_exact_outer_product(plan("matrix=3,6,9;2,4,6;1,2,3").a);
  // ... a single row or column, 1x1, and matrices of rank 2.
  expect_exact_outer_product(plan("matrix=1;-3;1").a);
  expect_exact_outer_product(plan("matrix=5").a);
  EXPECT_FALSE(plan("matrix=0,-1,0;-1,5,-1;0,-1,0").separable());
  EXPECT_FALSE(plan("matrix=1,2,1;2,4,2;1,2,2").separable());
  // Fixed-point weights separate when their rounded integers still factor exactly.
  const StencilPlan halves = plan("matrix=0.5,0.25,0.5;0.25,0.125,0.25;0.5,0.25,0.5");
  expect_exact_outer_product(halves.a);
  EXPECT_FALSE(plan("matrix=0.3,-0.1,0.7;0.2,0.9,-0.4;0.15,0.05,0.6").separable());
}

TEST(StencilPlan, NormalisingZeroSumWeightsIsRefused) {
  EXPECT_THROW(make_stencil_plan("convolve", params_for("convolve", {"matrix=-1,0,1", "normalize=true"})), Error);
}

TEST(StencilPlan, BorderNames) {
  for (Border b : {Border::Replicate, Border::Reflect, Border::Reflect101, Border::Wrap, Border::Constant})
    EXPECT_EQ(border_from_string(to_string(b)), b);
  EXPECT_THROW(border_from_string("mirror"), Error);
}

// The shared remap against OpenCV's documented examples (abcdefgh, n = 8).
TEST(StencilPlan, RemapMatchesOpenCvBorderDiagrams) {
  auto row = [](Border b) {
    std::string s;
    for (int p = -6; p < 0; ++p) s += char('a' + remap(p, 8, b));
    return s;
  };
  EXPECT_EQ(row(Border::Replicate), "aaaaaa");
  EXPECT_EQ(row(Border::Reflect), "fedcba");
  EXPECT_EQ(row(Border::Reflect101), "gfedcb");
  EXPECT_EQ(row(Border::Wrap), "cdefgh");
  EXPECT_EQ(remap(-1, 8, Border::Constant), -1);
  EXPECT_EQ(remap(8, 8, Border::Reflect101), 6);
  EXPECT_EQ(remap(8, 8, Border::Reflect), 7);
  EXPECT_EQ(remap(-5, 1, Border::Reflect101), 0) << "a single pixel reflects onto itself";
  EXPECT_EQ(remap(-3, 2, Border::Reflect101), 1);
}

}  // namespace
}  // namespace ks
