#include "source/kernel_source_map.hpp"

#include <iterator>

namespace ks::source {

namespace {

struct Row {
  std::string_view kernels;  // kernel ids the row applies to, separated by spaces
  std::string_view variant;
  SourceRef ref;
};

constexpr std::string_view kLinearStencils = "box gaussian sobel laplacian sharpen convolve";
constexpr std::string_view kSeparableStencils = "box gaussian sobel sharpen convolve";
constexpr std::string_view kNonSeparableStencils = "laplacian convolve";  // tiled: several outputs per thread
constexpr std::string_view kTiledWithATile = "box gaussian sobel laplacian sharpen convolve median";
constexpr std::string_view kFields = "heat grayscott";
constexpr std::string_view kVectors = "vecadd saxpy";
constexpr std::string_view kSums = "reduce integrate2d";

// The rows of one kernel x variant in the order the panel lists them.
constexpr Row kRows[] = {
    // Image stencils: one CUDA file per shape of kernel, the CPU references by kind of filter.
    {"sobel", "cpu", {"gpu/stencil/cpu/linear_cpu.cpp", "void gradient_magnitude("}},
    {"sharpen", "cpu", {"gpu/stencil/cpu/linear_cpu.cpp", "void unsharp_mask("}},
    {kLinearStencils, "cpu", {"gpu/stencil/cpu/linear_cpu.cpp", "void linear("}},
    // The CPU backend's SIMD loops (Highway) that those drivers call.
    {kLinearStencils, "cpu", {"gpu/stencil/cpu/simd/weighted_rows.cpp", "void four_vectors("}},
    {kLinearStencils, "naive", {"gpu/stencil/cuda/naive_window.cu", "naive_window_kernel("}},
    {kLinearStencils, "tiled", {"gpu/stencil/cuda/tiled_window.cu", "tiled_window_kernel("}},
    {kNonSeparableStencils, "tiled", {"gpu/stencil/cuda/window_multi.cu", "window_multi_kernel("}},
    // u8 one-channel laplacians: the 3x3 register kernel (stencil/tiled_design.hpp).
    {"laplacian", "tiled", {"gpu/stencil/cuda/separable_3x3_packed.cu", "separable3_packed_kernel("}},
    {kSeparableStencils, "separable", {"gpu/stencil/cuda/separable_strip.cu", "separable_strip_kernel("}},
    {kSeparableStencils, "separable", {"gpu/stencil/cuda/separable_3x3.cu", "separable3_kernel("}},
    {"median", "cpu", {"gpu/stencil/cpu/median_cpu.cpp", "void median("}},
    {"median", "cpu", {"gpu/stencil/cpu/simd/median_rows.cpp", "hn::Vec<D> median_3x3("}},
    {"median", "naive", {"gpu/stencil/cuda/median.cu", "naive_median_kernel("}},
    {"median", "tiled", {"gpu/stencil/cuda/median_network.cu", "median_network_kernel("}},
    {"median", "tiled", {"gpu/stencil/cuda/median_select.cuh", "forgetful_median_pair("}},
    // How every tiled kernel with a shared tile fills it (the lesson's first step).
    {kTiledWithATile, "tiled", {"gpu/stencil/cuda/tile_fill.cuh", "void fill_tile("}},
    // Simulations.
    {"life", "cpu", {"gpu/sim/cpu/life_cpu.cpp", "void life_step("}},
    {"life", "cpu_bitpacked", {"gpu/sim/cpu/life_cpu.cpp", "void life_step_bits("}},
    {"life", "naive", {"gpu/sim/cuda/life_naive.cu", "life_naive_kernel("}},
    {"life", "tiled", {"gpu/sim/cuda/life_tiled.cu", "life_tiled_kernel("}},
    {"life", "bitpacked", {"gpu/sim/cuda/life_bitpacked.cu", "life_bitpacked_kernel("}},
    {"heat", "cpu", {"gpu/sim/cpu/field_cpu.cpp", "void heat_step("}},
    {"grayscott", "cpu", {"gpu/sim/cpu/field_cpu.cpp", "void grayscott_step("}},
    {kFields, "naive", {"gpu/sim/cuda/field_naive.cu", "field_naive_kernel("}},
    {kFields, "strip", {"gpu/sim/cuda/field_strip.cu", "field_strip_kernel("}},
    // The basics lab.
    {kVectors, "cpu", {"gpu/lab/vecadd/vecadd.cpp", "void run_cpu("}},
    {kVectors, "naive", {"gpu/lab/vecadd/vecadd_cuda.cu", "vec_naive("}},
    {kVectors, "gridstride", {"gpu/lab/vecadd/vecadd_cuda.cu", "vec_gridstride("}},
    {kVectors, "vector4", {"gpu/lab/vecadd/vecadd_cuda.cu", "vec_vector4("}},
    {"reduce", "cpu", {"gpu/lab/reduce/reduce_cpu.cpp", "double reduce_cpu("}},
    {"integrate2d", "cpu", {"gpu/lab/integrate2d/integrate_cpu.cpp", "double integrate_sum_cpu("}},
    {kSums, "atomic", {"gpu/lab/reduce/cuda/sum_kernels.cuh", "atomic_sum_kernel("}},
    {kSums, "shared", {"gpu/lab/reduce/cuda/sum_kernels.cuh", "tree_sum_kernel("}},
    {"reduce", "warp", {"gpu/lab/reduce/cuda/reduce_cuda.cu", "warp_sum_vec4_kernel("}},
    {"integrate2d", "warp", {"gpu/lab/reduce/cuda/sum_kernels.cuh", "warp_sum_kernel("}},
    {kSums, "cub", {"gpu/lab/reduce/cuda/sum_driver.cuh", "cub::DeviceReduce::Reduce("}},
    {"integrate2d",
     "atomic shared warp cub",
     {"gpu/lab/integrate2d/cuda/integrate_cuda.cu", "IntegrandSource"}},
    {"matmul", "cpu", {"gpu/lab/matmul/matmul_cpu.cpp", "void rows_of_c("}},
    {"matmul", "openblas", {"gpu/lab/matmul/matmul_openblas.cpp", "cblas_sgemm("}},
    {"matmul", "naive", {"gpu/lab/matmul/cuda/matmul_simple.cuh", "matmul_naive_kernel("}},
    {"matmul", "tiled", {"gpu/lab/matmul/cuda/matmul_simple.cuh", "matmul_tiled_kernel("}},
    {"matmul", "regtiled", {"gpu/lab/matmul/cuda/matmul_regtiled.cuh", "matmul_regtiled_kernel("}},
    {"matmul", "cublas", {"gpu/lab/matmul/cuda/matmul_cuda.cu", "cublasSgemm("}},
    {"matmul", "cublas_tf32", {"gpu/lab/matmul/cuda/matmul_cuda.cu", "CUBLAS_TF32_TENSOR_OP_MATH"}},
    {"sort", "cpu", {"gpu/lab/sort/sort_cpu.cpp", "std::sort("}},
    {"sort", "cpu_parallel", {"gpu/lab/sort/sort_cpu.cpp", "tbb::parallel_sort("}},
    {"sort", "bitonic", {"gpu/lab/sort/cuda/bitonic_sort.cu", "sort_blocks_kernel("}},
    {"sort", "radix", {"gpu/lab/sort/cuda/sort_cuda.cu", "cub::DeviceRadixSort"}},
    {"kmeans", "cpu", {"gpu/lab/kmeans/kmeans_cpu.cpp", "class CpuKmeans"}},
    {"kmeans", "naive", {"gpu/lab/kmeans/cuda/kmeans_kernels.cu", "assign_naive("}},
    {"kmeans", "blocked", {"gpu/lab/kmeans/cuda/kmeans_kernels.cu", "assign_blocked("}},
    // The placement search (topology).
    {"search", "cpu", {"gpu/topo/search/cpu/search_cpu.cpp", "class CpuSearch"}},
    {"search", "cuda", {"gpu/topo/search/cuda/search_kernels.cuh", "tabu_kernel("}},
};

// Whether `word` is one of the space-separated words of `words`.
bool has_word(std::string_view words, std::string_view word) {
  while (!words.empty()) {
    const auto space = words.find(' ');
    if (words.substr(0, space) == word) return true;
    if (space == std::string_view::npos) break;
    words.remove_prefix(space + 1);
  }
  return false;
}

}  // namespace

std::vector<SourceRef> sources_of(std::string_view kernel_id, std::string_view variant) {
  std::vector<SourceRef> refs;
  for (const Row& row : kRows) {
    if (!has_word(row.kernels, kernel_id) || !has_word(row.variant, variant)) continue;
    // A kernel-specific row (sobel's cpu) comes before the family's and replaces it: the same file, a better
    // anchor.
    bool same_file = false;
    for (const SourceRef& r : refs) same_file = same_file || r.file == row.ref.file;
    if (!same_file) refs.push_back(row.ref);
  }
  return refs;
}

}  // namespace ks::source
