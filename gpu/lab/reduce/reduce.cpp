// reduce: the sum of an f32 array, the classic reduction lesson. Variants from one atomic per value to CUB;
// each sum is checked against the compensated (Neumaier) sum within the rounding bound of its accumulation
// type, and its rounding error is reported (and the exact sum where the values allow one).
#include <fmt/format.h>

#include <cmath>

#include "lab/reduce/reduce_cpu.hpp"
#include "lab/reduce/reduce_input.hpp"
#include "lab/reduce/sum_lab.hpp"
#include "lab/threaded_progress.hpp"

namespace ks::lab {

namespace {

// Neumaier's own error in double, a slack on every bound: far below any f32 or f64 accumulation's.
constexpr double kReferenceSlack = 0x1p-50;

class ReduceKernel final : public LabKernel {
 public:
  ReduceKernel() {
    info_.id = "reduce";
    info_.title = "Reduction (sum)";
    info_.description =
        "The sum of n f32 values (from the seed: uniform k/2^24 in [0, 1) or integers in [-1000, 1000], "
        "whose exact sums are computed in integers, or normal values). One add per 4 bytes read: "
        "memory-bound. Each variant's rounding error against the compensated (Neumaier) sum is reported and "
        "checked against the bound gamma_(n-1) * sum|x| of its accumulation type. With --streams K each "
        "chunk sums into its own result and the host adds the partial sums";
    info_.params = {
        accumulate_param(),
        choice_param("distribution", {"uniform", "integers", "normal"}, "uniform",
                     "The values: uniform k/2^24 in [0, 1) and integers in [-1000, 1000] have an exact sum "
                     "(computed in 128-bit integers); normal values (Box-Muller) have full mantissas and "
                     "mixed signs")};
    info_.variants = sum_variants(
        "CPU: fixed pieces of 65536 values, each summed in order in the accumulation type, threaded; the "
        "compensated (Neumaier) sum in double is the error reference",
        {.cpu = {"gpu/lab/reduce/reduce_cpu.cpp", "double reduce_cpu("},
         .warp = {"gpu/lab/reduce/cuda/reduce_cuda.cu", "warp_sum_vec4_kernel("},
         .values = {}});
    info_.form = SizeForm::Elements;
    info_.limits.max = {std::int64_t(1) << 30, 1, 1};
    info_.default_size = LabSize::elements(std::int64_t(1) << 24);
    info_.splits = true;
    info_.block_rank = 1;
    info_.default_block = {256, 1};
    info_.bench_sizes_cuda = {LabSize::elements(1 << 20), LabSize::elements(1 << 24),
                              LabSize::elements(1 << 28)};
    info_.bench_sizes_cpu = {LabSize::elements(1 << 16), LabSize::elements(1 << 20)};
    info_.bench_blocks = {{128, 1}, {256, 1}, {512, 1}};
  }

  const LabInfo& info() const override { return info_; }

  std::vector<ArraySpec> arrays(const LabSize& size, const ParamSet& params) const override {
    return {{"x", DType::F32, {size.n()}, ArrayRole::Input, ArraySplit::Sliced, "the values summed"},
            sum_output(accumulate_of(params), ArraySplit::PerChunk, "their sum, in the accumulation type")};
  }

  CostModel cost(const LabSize& size, const ParamSet&) const override {
    // Every value read once and added once (a lone f32 add).
    return CostModel::of(4 * std::uint64_t(size.n()), OpMix::of(OpKind::F32One, double(size.n())));
  }

  void fill(const ArrayViews& arrays, const FillContext& ctx) const override {
    fill_reduce_input(arrays[0].as<float>(),
                      reduce_distribution_from_string(ctx.params->get_choice("distribution")), ctx.seed,
                      *ctx.pool);
  }

  void run_cpu(const CpuRun& run) const override {
    const ArrayViews& a = *run.arrays;
    ThreadedProgress progress(run.control, "reduce on the CPU");
    write_sum(a[1], reduce_cpu(a[0].as<const float>().data(), a[0].count, accumulate_of(*run.params),
                               *run.pool, [&](double f) { progress(f); }));
  }

  std::unique_ptr<LabCudaRun> make_cuda_run(const CudaSetup& setup) const override {
    const SumVariant variant = sum_variant_of(setup.variant);
    const Accumulate accumulate = accumulate_of(*setup.params);
    const int block = setup.block.x;
    const DeviceInfo device = *setup.device;
    return std::make_unique<SumCudaRun>(
        [=](const LabSize& piece) { return plan_array_sum(variant, accumulate, piece.n(), block, device); },
        [](const DeviceSumPlan& plan, const LabLaunch& l) {
          array_sum(plan, static_cast<const float*>(l.arrays[0].data), l.arrays[1].data, l.workspace,
                    l.stream);
        },
        setup.size, true);
  }

  LabCheck compare(const ArrayViews& reference, const ArrayViews& result, const LabSize& size,
                   const ParamSet& params, ThreadPool& pool) const override {
    const SumReference ref = reduce_reference(reference[0].as<const float>().data(), size.n(), pool);
    return check_sum(
        ref.sum, read_sum(result[1]), bound(params, size.n(), ref),
        fmt::format("sum ({} accumulation) vs the compensated sum", to_string(accumulate_of(params))));
  }

  void describe(const ArrayViews& arrays, const LabSize& size, const ParamSet& params,
                LabFacts& facts) const override {
    ThreadPool pool;  // describe() is given no pool (lab-core: pass the engine's, as to compare())
    const float* x = arrays[0].as<const float>().data();
    const double sum = read_sum(arrays[1]);
    const SumReference ref = reduce_reference(x, size.n(), pool);
    facts.add("sum", fmt::format("{:.17g} ({} accumulation)", sum, to_string(accumulate_of(params))), sum);
    if (const auto exact = exact_dyadic_sum(x, size.n(), pool))
      facts.add("exact sum", fmt::format("{:.17g} (integer arithmetic; error {:.3g})", *exact, sum - *exact),
                *exact);
    add_rounding_facts(facts, sum, ref, bound(params, size.n(), ref), 1.0);
  }

  void combine(std::span<const ArrayViews> chunks, const ArrayViews& outputs) const override {
    double total = 0;  // the chunks' partial sums, added in double on the host
    for (const ArrayViews& c : chunks) total += read_sum(c[1]);
    write_sum(outputs[1], total);
  }

 private:
  static double bound(const ParamSet& params, long long n, const SumReference& ref) {
    return sum_error_bound(accumulate_of(params), n, ref.sum_abs) + kReferenceSlack * ref.sum_abs;
  }

  LabInfo info_;
};

}  // namespace

void add_reduce_kernels(LabKernelList& list) {
  list.push_back(std::make_shared<ReduceKernel>());
}

}  // namespace ks::lab
