// matmul: C = A * B in f32 (row-major), the lesson of data reuse: from one thread per element of C reading
// everything from global memory, through shared-memory tiles and register tiles, to cuBLAS (FP32, and TF32 on
// the tensor cores). The CPU reference is blocked and threaded; OpenBLAS runs beside it as the CPU peer.
#include <fmt/format.h>

#include "core/thread_pool.hpp"
#include "lab/lab_fill.hpp"
#include "lab/matmul/matmul_check.hpp"
#include "lab/matmul/matmul_cpu.hpp"
#include "lab/matmul/matmul_cuda.hpp"
#include "lab/threaded_progress.hpp"

namespace ks::lab {

namespace {

MatmulShape shape_of(const LabSize& s) {
  return {s.dims[0], s.dims[1], s.dims[2]};
}
bool integer_values(const ParamSet& p) {
  return p.get_choice("values") == "integers";
}

// Integers in [-8, 8]: products up to 64 and sums up to 64 * 8192 = 2^19 are exact in f32 (and every value
// in TF32), so every variant's C is exact.
void fill_matrix(std::span<float> m, bool integers, std::uint64_t seed, std::uint64_t stream,
                 ThreadPool& pool) {
  if (!integers) return fill_uniform(m, seed, stream, -1.0f, 1.0f, pool);
  pool.parallel_for(0, (long long)m.size(), [&](long long b, long long e) {
    for (long long i = b; i < e; ++i)
      m[std::size_t(i)] = float(std::int64_t(random_bits(seed, stream, std::uint64_t(i)) % 17) - 8);
  });
}

class MatmulCudaRun final : public LabCudaRun {
 public:
  explicit MatmulCudaRun(const CudaSetup& setup)
      : runner_(matmul_variant_from_string(setup.variant), shape_of(setup.size), setup.block, *setup.device),
        shape_(shape_of(setup.size)) {}

  std::optional<LaunchGeometry> geometry(const LabSize&) const override {
    const MatmulLaunch& l = runner_.launch();
    if (l.grid_x == 0) return std::nullopt;  // cuBLAS
    LaunchGeometry g;
    g.grid_x = l.grid_x;
    g.grid_y = l.grid_y;
    g.block = l.block;
    g.work_items =
        shape_.m * shape_.n / l.c_per_thread;  // threads' worth of C: 64 elements each for regtiled
    g.occupancy = l.occupancy;
    return g;
  }

  void launch(const LabLaunch& l) override {
    runner_.run(static_cast<const float*>(l.arrays[0].data), static_cast<const float*>(l.arrays[1].data),
                static_cast<float*>(l.arrays[2].data), l.stream);
  }

  void describe(LabFacts& facts) const override {
    facts.add("launch", runner_.launch().description);
    facts.add("precision", matmul_precision_text(runner_.launch().variant));
  }

 private:
  MatmulRunner runner_;
  MatmulShape shape_;
};

class MatmulKernel final : public LabKernel {
 public:
  MatmulKernel() {
    info_.id = "matmul";
    info_.title = "Matrix multiply (SGEMM)";
    info_.description =
        "C = A * B in f32, row-major (A is M x K, B is K x N): 2 M N K operations on 4 (MK + KN + MN) bytes, "
        "so the arithmetic intensity grows with the size and good kernels are bound by arithmetic. A, B and "
        "C read and write .npy files (--in A=a.npy --out C=c.npy). Each element of C is checked against the "
        "CPU reference within a bound derived from K and the magnitudes (2 gamma_K |a_i| |b_j|; TF32 adds "
        "2^-9)";
    info_.params = {
        choice_param("values", {"uniform", "integers"}, "uniform",
                     "A and B: uniform in [-1, 1], or integers in [-8, 8] (every product and sum exact in "
                     "f32 and TF32: all variants give the same C to the bit)")};
    info_.variants = {
        {"cpu", Backend::Cpu,
         "CPU reference: blocks of 16 rows of C against 128 x 512 panels of B (cache-sized), threaded over "
         "row blocks; each element summed in ascending k",
         {{"gpu/lab/matmul/matmul_cpu.cpp", "void rows_of_c("}}},
        {"openblas", Backend::Cpu,
         "OpenBLAS cblas_sgemm (Debian's libopenblas-dev), the CPU peer, on as many threads as the CPU "
         "backend",
         {{"gpu/lab/matmul/matmul_openblas.cpp", "cblas_sgemm("}}},
        {"naive", Backend::Cuda, "One thread per element of C; every term reads A and B from global memory",
         {{"gpu/lab/matmul/cuda/matmul_simple.cuh", "matmul_naive_kernel("}}},
        {"tiled", Backend::Cuda,
         "Shared-memory tiles: a T x T block (8x8, 16x16 or 32x32) loads T x T tiles of A and B once and "
         "uses each value T times",
         {{"gpu/lab/matmul/cuda/matmul_simple.cuh", "matmul_tiled_kernel("}}},
        {"regtiled", Backend::Cuda,
         "Register tiling: 16x16 threads compute a 128x128 tile of C, each thread an 8x8 block in registers "
         "from 16-byte shared-memory loads; tiles of A and B double-buffered (block 16x16 only)",
         {{"gpu/lab/matmul/cuda/matmul_regtiled.cuh", "matmul_regtiled_kernel("}}},
        {"cublas_tf32", Backend::Cuda,
         "cuBLAS on the TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32): operands rounded to 10 mantissa "
         "bits, ~1e-3 relative",
         {{"gpu/lab/matmul/cuda/matmul_cuda.cu", "CUBLAS_TF32_TENSOR_OP_MATH"}}},
        {"cublas", Backend::Cuda, "cuBLAS SGEMM with CUBLAS_DEFAULT_MATH: FP32 on the CUDA cores",
         {{"gpu/lab/matmul/cuda/matmul_cuda.cu", "cublas_api().sgemm("}}}};
    info_.form = SizeForm::Matmul;
    info_.limits.max = {kMaxMatmulSide, kMaxMatmulSide, kMaxMatmulSide};
    info_.default_size = LabSize::matmul(1024, 1024, 1024);
    info_.splits = false;
    info_.block_rank = 2;
    info_.default_block = {16, 16};
    info_.bench_sizes_cuda = {LabSize::matmul(1024, 1024, 1024), LabSize::matmul(4096, 4096, 4096)};
    info_.bench_sizes_cpu = {LabSize::matmul(256, 256, 256), LabSize::matmul(512, 512, 512)};
    info_.bench_blocks = {{16, 16}};
  }

  const LabInfo& info() const override { return info_; }

  void check(const LabSize&, const ParamSet&, const std::string& variant) const override {
    if (variant == "openblas" && !openblas_available())
      throw_usage("matmul's openblas variant is unavailable: " + openblas_unavailable_reason(),
                  "use --variant cpu");
  }

  std::vector<ArraySpec> arrays(const LabSize& size, const ParamSet&) const override {
    const MatmulShape s = shape_of(size);
    return {{"A", DType::F32, {s.m, s.k}, ArrayRole::Input, ArraySplit::Whole, "M x K"},
            {"B", DType::F32, {s.k, s.n}, ArrayRole::Input, ArraySplit::Whole, "K x N"},
            {"C", DType::F32, {s.m, s.n}, ArrayRole::Output, ArraySplit::Whole, "M x N = A * B"}};
  }

  CostModel cost(const LabSize& size, const ParamSet&) const override {
    const MatmulShape s = shape_of(size);
    return CostModel::of(matmul_bytes(s), OpMix::of(OpKind::F32Fma, double(std::uint64_t(matmul_flops(s)))));
  }

  void fill(const ArrayViews& arrays, const FillContext& ctx) const override {
    const bool integers = integer_values(*ctx.params);
    fill_matrix(arrays[0].as<float>(), integers, ctx.seed, 1, *ctx.pool);
    fill_matrix(arrays[1].as<float>(), integers, ctx.seed, 2, *ctx.pool);
  }

  void run_cpu(const CpuRun& run) const override {
    const ArrayViews& a = *run.arrays;
    const float* pa = a[0].as<const float>().data();
    const float* pb = a[1].as<const float>().data();
    float* pc = a[2].as<float>().data();
    const MatmulShape s = shape_of(run.size);
    if (run.variant == "openblas") return matmul_openblas(pa, pb, pc, s, int(run.pool->size()));
    ThreadedProgress progress(run.control, "matmul on the CPU");
    matmul_cpu(pa, pb, pc, s, *run.pool, [&](double f) { progress(f); });
  }

  std::unique_ptr<LabCudaRun> make_cuda_run(const CudaSetup& setup) const override {
    return std::make_unique<MatmulCudaRun>(setup);
  }

  // An FP32 variant's C (the CPU's bound); compare_variant loosens it for TF32.
  LabCheck compare(const ArrayViews& reference, const ArrayViews& result, const LabSize& size,
                   const ParamSet& params, ThreadPool& pool) const override {
    return compare_variant("cublas", reference, result, size, params, pool);
  }

  LabCheck compare_variant(const std::string& variant, const ArrayViews& reference, const ArrayViews& result,
                           const LabSize& size, const ParamSet& params, ThreadPool& pool) const override {
    const MatmulShape s = shape_of(size);
    const double factor = integer_values(params)     ? 0.0
                          : variant == "cublas_tf32" ? matmul_tf32_factor(s.k)
                                                     : matmul_fp32_factor(s.k);
    return compare_matmul(reference[0].as<const float>().data(), reference[1].as<const float>().data(),
                          reference[2].as<const float>().data(), result[2].as<const float>().data(), s,
                          factor, pool);
  }

 private:
  LabInfo info_;
};

}  // namespace

void add_matmul_kernels(LabKernelList& list) {
  list.push_back(std::make_shared<MatmulKernel>());
}

}  // namespace ks::lab
