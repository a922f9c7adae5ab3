#pragma once
// What the two sum kernels of the lab (reduce, integrate2d) share as lab kernels: the `accumulate` parameter,
// the variants and their help, the one-value `sum` output, and the CUDA run over a DeviceSumPlan.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lab/lab_kernel.hpp"
#include "lab/reduce/cpu_sum.hpp"
#include "lab/reduce/device_sum.hpp"

namespace ks::lab {

ParamSpec accumulate_param();
Accumulate accumulate_of(const ParamSet& params);

// The code of one sum kernel's variants besides the sum kernels both share (reduce/cuda/sum_kernels.cuh,
// sum_driver.cuh), for their VariantSpec::sources.
struct SumCode {
  SourceFile cpu;                  // the CPU reference's sum
  SourceFile warp;                 // the warp variant's kernel (reduce has its own, of 16-byte loads)
  std::vector<SourceFile> values;  // where the CUDA variants' values come from, listed after their sum kernel
};

// cpu (with `cpu_help`), atomic, shared, warp, cub.
std::vector<VariantSpec> sum_variants(const std::string& cpu_help, const SumCode& code);
SumVariant sum_variant_of(const std::string& variant);  // an Internal error for "cpu" or an unknown name

// The output: one value named "sum", f32 or f64 as accumulated.
ArraySpec sum_output(Accumulate accumulate, ArraySplit split, std::string help);
double read_sum(const ArrayView& view);
void write_sum(const ArrayView& view, double value);  // rounded to the array's type

// A sum against its compensated reference within `bound` (lab_check's compare_within). Where the bound is
// infinite (f32 sums of more than 2^23 values: sum_error_bound) nothing can be checked a priori: the check says
// so (checked = false) and the rounding error stays in the facts.
LabCheck check_sum(double reference, double sum, double bound, const std::string& what);

// The rounding facts of a sum against its compensated reference: the error and the bound it must stay within,
// also relative to the sum (an infinite bound: a "rounding bound" fact without a number that says why).
// `scale` turns sums into what the user reads (integrate2d: the cell area), 1 for reduce.
void add_rounding_facts(LabFacts& facts, double sum, const SumReference& reference, double bound,
                        double scale);

// One CUDA sum variant prepared for a run: plans per piece size (cached, so that nothing is planned between
// the timing events), the workspace of the largest piece, the geometry of the main kernel.
class SumCudaRun final : public LabCudaRun {
 public:
  using Planner = std::function<DeviceSumPlan(const LabSize& piece)>;
  using Launcher = std::function<void(const DeviceSumPlan& plan, const LabLaunch& launch)>;
  // `chunked`: the size may be cut into chunks, whose sizes differ by one element; both are planned.
  SumCudaRun(Planner planner, Launcher launcher, const LabSize& size, bool chunked);

  std::size_t workspace_bytes(const LabSize& piece) const override;
  std::optional<LaunchGeometry> geometry(const LabSize& piece) const override;
  void launch(const LabLaunch& launch) override;
  void describe(LabFacts& facts) const override;

 private:
  const DeviceSumPlan& plan_for(const LabSize& piece) const;

  Planner planner_;
  Launcher launcher_;
  bool chunked_;
  LabSize size_;
  mutable std::map<std::int64_t, DeviceSumPlan> plans_;  // by the piece's first dimension
};

}  // namespace ks::lab
