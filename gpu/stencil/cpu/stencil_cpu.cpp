#include "stencil/cpu/stencil_cpu.hpp"

#include "stencil/cpu/linear_cpu.hpp"
#include "stencil/cpu/median_cpu.hpp"
#include "stencil/cpu/plan_check.hpp"

namespace ks::cpu {

Image run_stencil(const StencilPlan& plan, const Image& in, ThreadPool& pool) {
  check_stencil_input(in);
  check_stencil_plan(plan, in.type());
  switch (plan.kind) {
    case StencilPlan::Kind::Linear:
      return run_linear(plan, in, pool);
    case StencilPlan::Kind::GradientMagnitude:
      return run_gradient_magnitude(plan, in, pool);
    case StencilPlan::Kind::UnsharpMask:
      return run_unsharp_mask(plan, in, pool);
    case StencilPlan::Kind::Median:
      return run_median(plan, in, pool);
  }
  return {};  // unreachable: every kind is handled above
}

}  // namespace ks::cpu
