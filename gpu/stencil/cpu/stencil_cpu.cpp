#include "stencil/cpu/stencil_cpu.hpp"

#include "core/error.hpp"
#include "stencil/cpu/linear_cpu.hpp"
#include "stencil/cpu/median_cpu.hpp"
#include "stencil/cpu/plan_check.hpp"

namespace ks::cpu {

void run_stencil_into(const StencilPlan& plan, const Image& in, Image& out, ThreadPool& pool, CpuPath path) {
  check_stencil_input(in);
  check_stencil_plan(plan, in.type());
  if (!(out.shape() == in.shape()))
    throw Error(ErrorKind::Internal, "run_stencil_into: the output image must have the input's shape");
  switch (plan.kind) {
    case StencilPlan::Kind::Linear:
      return run_linear(plan, in, out, pool, path);
    case StencilPlan::Kind::GradientMagnitude:
      return run_gradient_magnitude(plan, in, out, pool, path);
    case StencilPlan::Kind::UnsharpMask:
      return run_unsharp_mask(plan, in, out, pool, path);
    case StencilPlan::Kind::Median:
      return run_median(plan, in, out, pool, path);
  }
}

Image run_stencil(const StencilPlan& plan, const Image& in, ThreadPool& pool, CpuPath path) {
  check_stencil_input(in);  // before allocating an output for a bad input
  Image out(in.shape());
  run_stencil_into(plan, in, out, pool, path);
  return out;
}

}  // namespace ks::cpu
