// vecadd (c = a + b) and saxpy (y = alpha * x + y), f32: the first CUDA lesson. Two kernels with one
// implementation: the arrays differ (saxpy updates y in place), the arithmetic is one IEEE operation per element
// (an add, or a fused multiply-add: std::fma here, __fmaf_rn on the GPU), so every variant agrees with the CPU
// to the bit and the check's 1e-5 relative bound is never approached.
#include <fmt/format.h>

#include <cmath>

#include "core/no_cuda.hpp"
#include "core/thread_pool.hpp"
#include "lab/lab_check.hpp"
#include "lab/lab_fill.hpp"
#include "lab/vecadd/vecadd_cuda.hpp"

namespace ks::lab {

namespace {

constexpr double kRelTolerance = 1e-5;

class VecKernel final : public LabKernel {
 public:
  explicit VecKernel(VecOp op) : op_(op) {
    const bool add = op == VecOp::Add;
    info_.id = add ? "vecadd" : "saxpy";
    info_.title = add ? "Vector add" : "SAXPY";
    info_.description =
        add ? "c = a + b on f32 vectors of n elements (a, b uniform in -1..1 from the seed): one add per 12 bytes "
              "moved, so its time is the memory's. The report shows how the grid covers n (blocks, idle threads, "
              "waves) and, with --host and --streams, what moving the data to the GPU and back costs"
            : "y = alpha * x + y on f32 vectors (single-precision a*x plus y, the BLAS level-1 routine): one fused "
              "multiply-add per 12 bytes moved; y is updated in place";
    if (!add)
      info_.params = {float_param("alpha", -1e6, 1e6, "2", "The scalar a of y = a * x + y")};
    const std::string kernels = "gpu/lab/vecadd/vecadd_cuda.cu";  // one file: both kernels, every variant
    info_.variants = {
        {"cpu", Backend::Cpu, "CPU reference, threaded across all cores; the ground truth of the check",
         {{"gpu/lab/vecadd/vecadd.cpp", "void run_cpu("}}},
        {"naive", Backend::Cuda,
         "One element per thread, grid = ceil(n / block): the last block's extra threads idle",
         {{kernels, "vec_naive("}}},
        {"gridstride", Backend::Cuda,
         "A grid sized to the device (SMs x resident blocks per SM); each thread loops over elements a grid apart",
         {{kernels, "vec_gridstride("}}},
        {"vector4", Backend::Cuda,
         "16-byte loads and stores (float4), one per thread; scalar head and tail for n not a multiple of 4 and for "
         "chunk starts that are not 16-byte aligned",
         {{kernels, "vec_vector4("}}}};
    info_.form = SizeForm::Elements;
    info_.limits.max = {std::int64_t(1) << 30, 1, 1};
    info_.default_size = LabSize::elements(std::int64_t(1) << 24);
    info_.splits = true;
    info_.block_rank = 1;
    info_.default_block = {256, 1};
    info_.bench_sizes_cuda = {LabSize::elements(1 << 20), LabSize::elements(1 << 24), LabSize::elements(1 << 28)};
    info_.bench_sizes_cpu = {LabSize::elements(1 << 16), LabSize::elements(1 << 20)};
    info_.bench_blocks = {{128, 1}, {256, 1}, {1024, 1}};
  }

  const LabInfo& info() const override { return info_; }

  std::vector<ArraySpec> arrays(const LabSize& size, const ParamSet&) const override {
    const std::vector<std::int64_t> shape{size.n()};
    if (op_ == VecOp::Add)
      return {{"a", DType::F32, shape, ArrayRole::Input, ArraySplit::Sliced, "first summand"},
              {"b", DType::F32, shape, ArrayRole::Input, ArraySplit::Sliced, "second summand"},
              {"c", DType::F32, shape, ArrayRole::Output, ArraySplit::Sliced, "a + b"}};
    return {{"x", DType::F32, shape, ArrayRole::Input, ArraySplit::Sliced, "x"},
            {"y", DType::F32, shape, ArrayRole::InOut, ArraySplit::Sliced, "y, replaced by alpha * x + y"}};
  }

  CostModel cost(const LabSize& size, const ParamSet&) const override {
    // Two f32 reads and one f32 write per element; a lone add (vecadd) or an FMA = 2 operations (saxpy).
    const auto n = std::uint64_t(size.n());
    return CostModel::of(12 * n, op_ == VecOp::Add ? OpMix::of(OpKind::F32One, double(n))
                                                   : OpMix::of(OpKind::F32Fma, 2.0 * double(n)));
  }

  void fill(const ArrayViews& arrays, const FillContext& ctx) const override {
    fill_uniform(arrays[0].as<float>(), ctx.seed, 1, -1.0f, 1.0f, *ctx.pool);
    fill_uniform(arrays[1].as<float>(), ctx.seed, 2, -1.0f, 1.0f, *ctx.pool);
  }

  void run_cpu(const CpuRun& run) const override {
    const float* x = (*run.arrays)[0].as<const float>().data();
    const float* y = (*run.arrays)[1].as<const float>().data();
    float* out = (*run.arrays)[op_ == VecOp::Add ? 2 : 1].as<float>().data();
    const float alpha = op_ == VecOp::Saxpy ? float(run.params->get_float("alpha")) : 0.0f;
    const VecOp op = op_;
    run.pool->parallel_for(0, run.size.n(), [&](long long b, long long e) {
      if (op == VecOp::Add)
        for (long long i = b; i < e; ++i) out[i] = x[i] + y[i];
      else
        for (long long i = b; i < e; ++i) out[i] = std::fma(alpha, x[i], y[i]);
    });
  }

  std::unique_ptr<LabCudaRun> make_cuda_run(const CudaSetup& setup) const override {
#if KS_HAVE_CUDA
    return make_vecadd_cuda_run(setup, op_);
#else
    (void)setup;
    throw_no_cuda();
#endif
  }

  LabCheck compare(const ArrayViews& reference, const ArrayViews& result, const LabSize&, const ParamSet&,
                   ThreadPool& pool) const override {
    const std::size_t out = op_ == VecOp::Add ? 2 : 1;
    return compare_relative(reference[out].as<const float>(), result[out].as<const float>(), kRelTolerance,
                            op_ == VecOp::Add ? "elements of c" : "elements of y", pool);
  }

 private:
  VecOp op_;
  LabInfo info_;
};

}  // namespace

void add_vecadd_kernels(LabKernelList& list) {
  list.push_back(std::make_shared<VecKernel>(VecOp::Add));
  list.push_back(std::make_shared<VecKernel>(VecOp::Saxpy));
}

}  // namespace ks::lab
