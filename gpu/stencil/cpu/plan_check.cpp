#include "stencil/cpu/plan_check.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace ks::cpu {

namespace {

[[noreturn]] void bad_plan(const std::string& what) {
  throw Error(ErrorKind::Internal, "stencil plan: " + what, "this is a bug in kernelscope; please report it");
}

std::int64_t abs_sum(const std::vector<std::int32_t>& v) {
  std::int64_t s = 0;
  for (std::int32_t x : v) s += std::llabs(x);
  return s;
}

// The largest |window sum| a U8 image can give with these integer weights.
std::int64_t max_u8_sum(const LinearFilter& f) {
  return 255 * abs_sum(f.iw);
}

void check_filter(const LinearFilter& f, ElemType type, const char* name) {
  const std::string n = name;
  if (f.rx < 0 || f.ry < 0) bad_plan("filter " + n + " has a negative radius");
  const std::size_t taps = std::size_t(f.width()) * std::size_t(f.height());
  if (type == ElemType::F32) {
    if (f.w.size() != taps)
      bad_plan("filter " + n + " has " + std::to_string(f.w.size()) + " float weights, not " +
               std::to_string(taps));
    if (f.separable && (f.separable->wx.size() != std::size_t(f.width()) ||
                        f.separable->wy.size() != std::size_t(f.height())))
      bad_plan("filter " + n + ": separable float factors have the wrong length");
    return;
  }
  if (f.iw.size() != taps)
    bad_plan("filter " + n + " has " + std::to_string(f.iw.size()) + " integer weights, not " +
             std::to_string(taps));
  if (f.divisor <= 0)
    bad_plan("filter " + n + " has divisor " + std::to_string(f.divisor) + " (must be > 0)");
  if (max_u8_sum(f) > INT32_MAX) bad_plan("filter " + n + ": a u8 window sum could overflow int32");
  if (!f.separable) return;
  const auto& s = *f.separable;
  if (s.iwx.size() != std::size_t(f.width()) || s.iwy.size() != std::size_t(f.height()))
    bad_plan("filter " + n + ": separable integer factors have the wrong length");
  // The two-pass sum equals the 2-D one only if the window is exactly the outer product.
  for (int y = 0; y < f.height(); ++y)
    for (int x = 0; x < f.width(); ++x)
      if (std::int64_t(s.iwy[std::size_t(y)]) * s.iwx[std::size_t(x)] != f.iw[std::size_t(y * f.width() + x)])
        bad_plan("filter " + n + ": integer weights are not the outer product of the separable factors");
  if (255 * abs_sum(s.iwx) * abs_sum(s.iwy) > INT32_MAX)
    bad_plan("filter " + n + ": a u8 separable pass could overflow int32");
}

}  // namespace

void check_stencil_input(const Image& in) {
  // Empty first: a default-constructed Image has no channels either, and "empty" is the useful message.
  if (in.empty())
    throw_usage("the image is empty (" + std::to_string(in.width()) + "x" + std::to_string(in.height()) + ")",
                "give an image with at least one pixel");
  if (in.type() != ElemType::U8 && in.type() != ElemType::F32)
    throw_usage(std::string("stencil kernels take u8 or f32 images, not ") + to_string(in.type()),
                "convert the image first (--type u8 or --type f32)");
  if (in.channels() != 1 && in.channels() != 4)
    throw_usage("stencil kernels take images with 1 or 4 channels, not " + std::to_string(in.channels()),
                "convert the image to gray (1) or RGBA (4) first");
}

void check_stencil_plan(const StencilPlan& plan, ElemType type) {
  switch (plan.kind) {
    case StencilPlan::Kind::Linear:
      check_filter(plan.a, type, "a");
      break;
    case StencilPlan::Kind::UnsharpMask:
      check_filter(plan.a, type, "a");
      if (!std::isfinite(plan.amount)) bad_plan("the unsharp amount is not a finite number");
      break;
    case StencilPlan::Kind::GradientMagnitude:
      check_filter(plan.a, type, "a");
      check_filter(plan.b, type, "b");
      if (type == ElemType::U8) {
        if (plan.a.divisor != 1 || plan.b.divisor != 1)
          bad_plan("a u8 gradient magnitude needs divisor 1 on both filters");
        const std::int64_t a = max_u8_sum(plan.a), b = max_u8_sum(plan.b);
        if (a * a + b * b > INT32_MAX) bad_plan("a u8 gradient magnitude could overflow int32");
      }
      break;
    case StencilPlan::Kind::Median:
      if (plan.median_radius < 0) bad_plan("negative median radius");
      break;
  }
}

}  // namespace ks::cpu
