// The lab's `sort` kernel: u32 keys, or key-value pairs, sorted in place. CPU: std::sort (the reference) and
// tbb::parallel_sort; CUDA: a bitonic sort written here and CUB's radix sort (sort_cpu.hpp,
// cuda/sort_cuda.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "core/no_cuda.hpp"
#include "core/thread_pool.hpp"
#include "lab/lab_check.hpp"
#include "lab/sort/sort_cpu.hpp"
#include "lab/sort/sort_data.hpp"

#if KS_HAVE_CUDA
#include "lab/sort/cuda/sort_lab_run.hpp"
#endif

namespace ks::lab {

namespace {

bool pairs_of(const ParamSet& params) {
  return params.get_choice("payload") == "pairs";
}

// Radix keeps equal keys in input order, the CPU orders them by value: where the keys agree and the values do
// not, each run of equal keys must carry the same values (as multisets).
LabCheck compare_tie_values(std::span<const std::uint32_t> keys, std::span<const std::uint32_t> expected,
                            std::span<const std::uint32_t> actual) {
  LabCheck c;
  c.checked = true;
  std::vector<std::uint32_t> a, b;
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t j = i + 1;
    while (j < keys.size() && keys[j] == keys[i]) ++j;
    a.assign(expected.begin() + std::ptrdiff_t(i), expected.begin() + std::ptrdiff_t(j));
    b.assign(actual.begin() + std::ptrdiff_t(i), actual.begin() + std::ptrdiff_t(j));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) {
      c.detail = fmt::format("values: the {} keys {} at [{}..{}) carry other values than the CPU's", j - i,
                             keys[i], i, j);
      return c;
    }
    i = j;
  }
  c.agrees = true;
  c.detail =
      "values: every run of equal keys carries the CPU's values, in another order (radix keeps the input "
      "order of equal keys, the CPU orders them by value)";
  return c;
}

class SortKernel final : public LabKernel {
 public:
  SortKernel() {
    info_.id = "sort";
    info_.title = "Sort";
    info_.description =
        "Sorts u32 keys, or key-value pairs (u32 values travel with their keys), in place. The keys come "
        "from a "
        "distribution of the seed (uniform, few distinct values, already sorted, reversed). bitonic is the "
        "classic GPU sorting network written here (shared-memory blocks, then merge passes); radix is CUB's "
        "DeviceRadixSort, what a professional would call. Sorts read and write every key about log n times "
        "(bitonic) or a few times (radix): GB/s counts one read and one write";
    info_.params = {
        choice_param(
            "distribution", {"uniform", "few", "sorted", "reversed"}, "uniform",
            "How the keys are drawn from the seed: every u32 equally likely; 16 distinct values (long "
            "runs of equal keys); already sorted; sorted in reverse"),
        choice_param(
            "payload", {"keys", "pairs"}, "keys",
            "keys: u32 keys alone; pairs: each key carries a u32 value (its input position, unless given "
            "with --in values=FILE.npy)")};
    info_.variants = {
        {"cpu", Backend::Cpu, "std::sort on one core: the reference. Pairs sort by key, equal keys by value",
         {{"gpu/lab/sort/sort_cpu.cpp", "std::sort("}}},
        {"cpu_parallel", Backend::Cpu,
         "tbb::parallel_sort (Debian's libtbb-dev) on every core, same order as cpu",
         {{"gpu/lab/sort/sort_cpu.cpp", "tbb::parallel_sort("}}},
        {"bitonic", Backend::Cuda,
         "Bitonic sorting network: blocks of 4096 keys sorted 8 per thread in registers (warp shuffles for "
         "strides below 32, shared memory to reach the others), then merge passes: up to 6 strides across "
         "blocks per pass in registers (5 for pairs), the rest in a block; n padded to a power of two. Not "
         "stable: pairs sort as 64-bit words, equal keys by value",
         {{"gpu/lab/sort/cuda/bitonic_sort.cu", "sort_blocks_kernel("}}},
        {"radix", Backend::Cuda,
         "CUB DeviceRadixSort (SortKeys / SortPairs): stable, equal keys keep input order",
         {{"gpu/lab/sort/cuda/sort_cuda.cu", "cub::DeviceRadixSort"}}}};
    info_.form = SizeForm::Elements;
    info_.limits.max = {std::int64_t(kMaxSortElements), 1, 1};
    info_.default_size = LabSize::elements(std::int64_t(1) << 24);
    info_.splits = false;
    info_.block_rank = 1;
    info_.operations = OperationKind::Comparison;  // n log2 n comparisons: cost()
    info_.default_block = {512, 1};  // bitonic's; neither variant takes another (SortRun says so)
    info_.bench_sizes_cuda = {LabSize::elements(1 << 20), LabSize::elements(1 << 24)};
    info_.bench_sizes_cpu = {LabSize::elements(1 << 16), LabSize::elements(1 << 20)};
    info_.bench_blocks = {{512, 1}};
  }

  const LabInfo& info() const override { return info_; }

  void check(const LabSize&, const ParamSet&, const std::string& variant) const override {
    if (variant == "cpu_parallel" && !cpu_parallel_sort_unavailable_reason().empty())
      throw_usage(cpu_parallel_sort_unavailable_reason(), "use --variant cpu");
  }

  std::vector<ArraySpec> arrays(const LabSize& size, const ParamSet& params) const override {
    const std::vector<std::int64_t> shape{size.n()};
    std::vector<ArraySpec> a{
        {"keys", DType::U32, shape, ArrayRole::InOut, ArraySplit::Sliced, "the keys, sorted in place"}};
    if (pairs_of(params))
      a.push_back({"values", DType::U32, shape, ArrayRole::InOut, ArraySplit::Sliced,
                   "a value per key, moved with it (default: the key's input position)"});
    return a;
  }

  CostModel cost(const LabSize& size, const ParamSet& params) const override {
    // Bytes: each array read once and written once. Operations: n log2 n comparisons, what any comparison
    // sort needs (radix compares nothing, so its rate is one of that yardstick, not of its instructions).
    // Comparisons are no FLOPs (info_.operations): the reports say "comparisons", off the FLOP roof.
    const auto n = std::uint64_t(size.n());
    const std::uint64_t log_n = std::max<std::uint64_t>(1, std::bit_width(n - 1));
    return {(pairs_of(params) ? 16 : 8) * n, n * log_n};
  }

  void fill(const ArrayViews& arrays, const FillContext& ctx) const override {
    fill_keys(arrays[0].as<std::uint32_t>(),
              key_distribution_from_string(ctx.params->get_choice("distribution")), ctx.seed, *ctx.pool);
    if (arrays.size() > 1) fill_positions(arrays[1].as<std::uint32_t>(), *ctx.pool);
  }

  void run_cpu(const CpuRun& run) const override {
    const ArrayViews& a = *run.arrays;
    sort_cpu(a[0].as<std::uint32_t>(), a.size() > 1 ? a[1].as<std::uint32_t>() : std::span<std::uint32_t>(),
             run.variant == "cpu_parallel");
  }

  std::unique_ptr<LabCudaRun> make_cuda_run(const CudaSetup& setup) const override {
#if KS_HAVE_CUDA
    const cuda::GpuSort v = setup.variant == "radix" ? cuda::GpuSort::Radix : cuda::GpuSort::Bitonic;
    return make_sort_cuda_run(setup, v, pairs_of(*setup.params));
#else
    (void)setup;
    throw_no_cuda();
#endif
  }

  LabCheck compare(const ArrayViews& reference, const ArrayViews& result, const LabSize&, const ParamSet&,
                   ThreadPool& pool) const override {
    const auto ref_keys = reference[0].as<const std::uint32_t>();
    LabCheck keys = compare_exact(ref_keys, result[0].as<const std::uint32_t>(), "keys", pool);
    if (reference.size() < 2) return keys;
    const auto ref_values = reference[1].as<const std::uint32_t>(),
               values = result[1].as<const std::uint32_t>();
    LabCheck v = compare_exact(ref_values, values, "values", pool);
    if (!v.agrees && keys.agrees) v = compare_tie_values(ref_keys, ref_values, values);
    return merge_checks(keys, v);
  }

  void describe(const ArrayViews& arrays, const LabSize&, const ParamSet&, LabFacts& facts) const override {
    const auto keys = arrays[0].as<const std::uint32_t>();
    const auto descent = std::is_sorted_until(keys.begin(), keys.end());
    if (descent == keys.end())
      facts.add("sorted", "yes");
    else
      facts.add("sorted",
                fmt::format("no: keys[{}] < keys[{}]", descent - keys.begin(), descent - keys.begin() - 1));
  }

 private:
  LabInfo info_;
};

}  // namespace

void add_sort_kernels(LabKernelList& list) {
  list.push_back(std::make_shared<SortKernel>());
}

}  // namespace ks::lab
