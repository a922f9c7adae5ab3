// The stencil kernels as the registry describes them. Each entry: parameters (with ranges and help), variants
// with the files of their code, and a cost model. Execution goes through make_stencil_plan and the CPU / CUDA
// backends.
//
// To add a stencil: its plan in make_stencil_plan (stencil_plan.cpp), then one registry.add(stencil_spec(...))
// below whose StencilCode says the kind of its plan and which CUDA kernels may serve its tiled and separable
// variants; those choose the files each variant lists for the Source panel (cpu_sources, naive_sources,
// files_of below, where a new kernel file is listed too). tests/cpu/test_source_embedded.cpp fails when a variant
// lists no file, a file the build does not embed, or an entry its file does not hold.
#include <fmt/format.h>

#include <cmath>

#include "registry/registry.hpp"
#include "stencil/cpu/median_network.hpp"
#include "stencil/recursive_gaussian.hpp"
#include "stencil/stencil_plan.hpp"
#include "stencil/tiled_design.hpp"

namespace ks {

namespace {

// Every stencil reads outside the image near its edges; these two parameters say how.
void add_border_params(std::vector<ParamSpec>& params) {
  params.push_back(choice_param("border", {"reflect101", "reflect", "replicate", "wrap", "constant"}, "reflect101",
                                "How pixels outside the image are read (OpenCV's meaning; reflect101 is its "
                                "default): reflect101 gfedcb|abcdefgh, reflect fedcba|abcdefgh, replicate "
                                "aaaaaa|abcdefgh, wrap cdefgh|abcdefgh, constant: border_value"));
  params.push_back(float_param("border_value", -65535, 65535, "0",
                               "Value read outside the image with border=constant, in the image's units "
                               "(0..255 for u8, usually 0..1 for f32)"));
}

// The kernels that may run a separable variant (stencil_cuda.cu's make_launch picks one per run).
enum class SeparableKernel {
  Strip,      // separable_strip.cu: any radius
  Small3x3,   // separable_3x3.cu: up to 3x3, blocks that suit warp shuffles
  Packed3x3,  // separable_3x3_packed.cu: u8 Linear plans up to 3x3 with weights >= 0 and small sums (the box)
};

// The code that runs a stencil's variants; it decides the files each variant lists (VariantSpec::sources).
struct StencilCode {
  StencilPlan::Kind kind;  // its plan's kind with the default parameters: the CPU driver and naive's kernel
  std::vector<TiledKernel> tiled;  // what tiled_design (stencil/tiled_design.hpp) may choose for its tiled variant
  std::vector<SeparableKernel> separable;  // empty: no separable variant
  bool recursive = false;  // the recursive (IIR) Gaussian's variants, on the CPU and on CUDA (gaussian only)
};

// The CPU reference: its driver, then the SIMD loop (Highway) that driver calls.
std::vector<SourceFile> cpu_sources(StencilPlan::Kind kind) {
  switch (kind) {
    case StencilPlan::Kind::Median:
      return {{"gpu/stencil/cpu/median_cpu.cpp", "void median("},
              {"gpu/stencil/cpu/simd/median_rows.cpp", "hn::Vec<D> median_3x3("}};
    case StencilPlan::Kind::GradientMagnitude:
      return {{"gpu/stencil/cpu/linear_cpu.cpp", "void gradient_magnitude("},
              {"gpu/stencil/cpu/simd/weighted_rows.cpp", "void four_vectors("}};
    case StencilPlan::Kind::UnsharpMask:
      return {{"gpu/stencil/cpu/linear_cpu.cpp", "void unsharp_mask("},
              {"gpu/stencil/cpu/simd/weighted_rows.cpp", "void four_vectors("}};
    case StencilPlan::Kind::Linear:
      break;
  }
  return {{"gpu/stencil/cpu/linear_cpu.cpp", "void linear("},
          {"gpu/stencil/cpu/simd/weighted_rows.cpp", "void four_vectors("}};
}

std::vector<SourceFile> naive_sources(StencilPlan::Kind kind) {
  if (kind == StencilPlan::Kind::Median) return {{"gpu/stencil/cuda/median.cu", "naive_median_kernel("}};
  return {{"gpu/stencil/cuda/naive_window.cu", "naive_window_kernel("}};
}

// The file of each CUDA kernel that may serve the tiled or the separable variant (the median's: also its
// selection networks).
std::vector<SourceFile> files_of(TiledKernel k) {
  switch (k) {
    case TiledKernel::Window: return {{"gpu/stencil/cuda/tiled_window.cu", "tiled_window_kernel("}};
    case TiledKernel::WindowMulti: return {{"gpu/stencil/cuda/window_multi.cu", "window_multi_kernel("}};
    case TiledKernel::Laplacian3x3:
      return {{"gpu/stencil/cuda/separable_3x3_packed.cu", "separable3_packed_kernel("}};
    case TiledKernel::Median:
      return {{"gpu/stencil/cuda/median_network.cu", "median_network_kernel("},
              {"gpu/stencil/cuda/median_select.cuh", "forgetful_median_pair("}};
  }
  return {};
}
std::vector<SourceFile> files_of(SeparableKernel k) {
  switch (k) {
    case SeparableKernel::Strip: return {{"gpu/stencil/cuda/separable_strip.cu", "separable_strip_kernel("}};
    case SeparableKernel::Small3x3: return {{"gpu/stencil/cuda/separable_3x3.cu", "separable3_kernel("}};
    case SeparableKernel::Packed3x3:
      return {{"gpu/stencil/cuda/separable_3x3_packed.cu", "separable3_packed_kernel("}};
  }
  return {};
}

// The files of `kernels`, in the order given.
template <class Kernel>
std::vector<SourceFile> files_of(const std::vector<Kernel>& kernels) {
  std::vector<SourceFile> files;
  for (const Kernel k : kernels)
    for (SourceFile& f : files_of(k)) files.push_back(std::move(f));
  return files;
}

// Each kernel tiled_design may choose, then how the kernels with a shared tile fill it (the lesson's first step).
std::vector<SourceFile> tiled_sources(const std::vector<TiledKernel>& kernels) {
  std::vector<SourceFile> files = files_of(kernels);
  files.push_back({"gpu/stencil/cuda/tile_fill.cuh", "void fill_tile("});
  return files;
}

// The recursive Gaussian's operations: per element, rows and columns, each a causal and an anti-causal
// recursion of two sections, a step of a section a multiply and three multiply-adds, the sections' and the
// directions' sums three adds a pass; whatever sigma is.
CostModel recursive_cost(const ImageShape& shape, const ParamSet&) {
  const double elements = double(shape.pixel_count()) * shape.channels;
  constexpr double kPasses = 2, kDirections = 2, kSections = 2;
  const OpMix per_element = OpMix::of(OpKind::F32Fma, 2 * 3 * kSections * kDirections * kPasses)
                                .add(OpKind::F32One, (kSections * kDirections + 3) * kPasses);
  return CostModel::of(2 * shape.byte_size(), per_element.scaled(elements));
}

std::vector<VariantSpec> variants_of(const StencilCode& code) {
  std::vector<VariantSpec> variants = {
      {"cpu", Backend::Cpu, "CPU reference, threaded across all cores; the ground truth of the tests",
       cpu_sources(code.kind)},
      {"naive", Backend::Cuda,
       "One thread per output pixel reading every tap from global memory: the teaching baseline",
       naive_sources(code.kind)},
      {"tiled", Backend::Cuda, "Each block loads its tile plus halo into shared memory once, then computes",
       tiled_sources(code.tiled)}};
  if (!code.separable.empty())
    variants.push_back({"separable", Backend::Cuda,
                        "A row pass then a column pass: (2r+1)*2 taps per pixel instead of (2r+1)^2",
                        files_of(code.separable)});
  if (code.recursive) {
    variants.push_back({"cpu_recursive", Backend::Cpu,
                        "Recursive (IIR) Gaussian on the CPU (Deriche): causal and anti-causal recursions along "
                        "rows then columns, the same cost for any sigma; within 0.1% of the exact Gaussian",
                        {{"gpu/stencil/cpu/recursive_cpu.cpp", "void recursive_blur("},
                         {"gpu/stencil/cpu/simd/recursive_lines.cpp", "HWY_INLINE void causal_block("}},
                        true, recursive_cost});
    variants.push_back({"recursive", Backend::Cuda,
                        "Recursive (IIR) Gaussian (Deriche), block-parallel (Nehab et al.): tiles filter their "
                        "rows on their own from zero, short walks over the tiles' end states give each tile its "
                        "carries (the columns' from the rows' shares, without reading the image again), then "
                        "every tile filters rows and columns with them; the same cost for any sigma, within 0.1% "
                        "of the exact Gaussian",
                        {{"gpu/stencil/cuda/recursive_gaussian.cu", "recursive_row_pass_kernel("},
                         {"gpu/stencil/cuda/recursive_gaussian.cu", "recursive_warmups_kernel("},
                         {"gpu/stencil/cuda/recursive_gaussian.cu", "recursive_row_carries_kernel("},
                         {"gpu/stencil/cuda/recursive_gaussian.cu", "recursive_column_shares_kernel("},
                         {"gpu/stencil/cuda/recursive_gaussian.cu", "recursive_tiles_final_kernel("}},
                        true, recursive_cost});
  }
  return variants;
}

// The fewest bytes a stencil must move: read the image once, write it once. Operations by kind
// (core/op_mix.hpp), those of the work the plan needs: a multiply and an add per tap (separable filters count
// their two 1-D passes), on f32 a fused multiply-add, on u8 an integer multiply and add in the lanes the sums
// fit (16-bit where every sum fits int16, as the CPU's SIMD path and the GPU's packed kernels sum, else
// 32-bit); the finishing steps (magnitude, unsharp blend) as lone operations; a median its compare-exchanges,
// a min and a max each, on u8 lanes or as f32 operations: the 3x3 window as sorted columns then the median of
// their lows, middles and highs (15 exchanges), larger ones as the pruned Batcher network
// (cpu/median_network.hpp).
OpMix stencil_ops_per_element(const StencilPlan& plan, ElemType type) {
  const bool u8 = type == ElemType::U8;
  const OpKind taps_kind = !u8 ? OpKind::F32Fma : u8_sums_fit_int16(plan) ? OpKind::I16 : OpKind::I32;
  auto taps = [](const LinearFilter& f) {
    return f.separable ? double(f.width() + f.height()) : double(f.width()) * f.height();
  };
  OpMix ops;
  switch (plan.kind) {
    case StencilPlan::Kind::Linear:
      ops.add(taps_kind, 2 * taps(plan.a));
      break;
    case StencilPlan::Kind::GradientMagnitude:
      // dx^2 + dy^2 and the root: three f32 operations and a sqrt, or on u8 integer squares and a sum (the
      // root a table look-up).
      ops.add(taps_kind, 2 * (taps(plan.a) + taps(plan.b))).add(u8 ? OpKind::I32 : OpKind::F32One, 4);
      break;
    case StencilPlan::Kind::UnsharpMask:  // src + amount * (src - blur): in float on both types
      ops.add(taps_kind, 2 * taps(plan.a)).add(OpKind::F32One, 3);
      break;
    case StencilPlan::Kind::Median: {
      const int taps_n = (2 * plan.median_radius + 1) * (2 * plan.median_radius + 1);
      const double exchanges = plan.median_radius == 1 ? 15.0 : double(cpu::median_network(taps_n).size());
      ops.add(u8 ? OpKind::U8 : OpKind::F32One, 2 * exchanges);
      break;
    }
  }
  return ops;
}

CostModel stencil_cost(const std::string& id, const ImageShape& shape, const ParamSet& params) {
  const StencilPlan plan = make_stencil_plan(id, params);
  const double elements = double(shape.pixel_count()) * shape.channels;
  return CostModel::of(2 * shape.byte_size(), stencil_ops_per_element(plan, shape.type).scaled(elements));
}

// Why the recursive Gaussian cannot take these parameters (it has no window, and its fit holds from sigma 1).
std::optional<std::string> recursive_unavailable_reason(const ParamSet& p) {
  if (p.get_float("sigma") < kRecursiveMinSigma)
    return fmt::format("the recursive filter approximates a Gaussian from sigma {} up, not {}; use separable",
                       kRecursiveMinSigma, p.get_float("sigma"));
  if (p.get_int("radius") != 0)
    return "the recursive filter has no window radius (it filters with the whole Gaussian); set radius=0, or use "
           "separable for a window of radius " + std::to_string(p.get_int("radius"));
  return std::nullopt;
}

KernelSpec stencil_spec(std::string id, std::string title, std::string description, std::vector<ParamSpec> params,
                        const StencilCode& code) {
  KernelSpec k;
  k.id = id;
  k.title = std::move(title);
  k.category = "stencil";
  k.description = std::move(description);
  k.params = std::move(params);
  add_border_params(k.params);
  k.variants = variants_of(code);
  k.types = {ElemType::U8, ElemType::F32};
  k.channels = {1, 4};
  k.cost = [id](const ImageShape& shape, const ParamSet& p) { return stencil_cost(id, shape, p); };
  k.unavailable_reason = [id](const std::string& variant, const ParamSet& p) -> std::optional<std::string> {
    if (variant == "separable" && !make_stencil_plan(id, p).separable())
      return "the separable variant needs a separable filter; use tiled";
    if (variant.ends_with("recursive")) return recursive_unavailable_reason(p);
    return std::nullopt;
  };
  return k;
}

}  // namespace

void register_stencil_kernels(KernelRegistry& registry) {
  using enum SeparableKernel;
  registry.add(stencil_spec(
      "box", "Box blur", "Mean of the (2r+1)x(2r+1) window; on u8 rounded to nearest as OpenCV's blur does",
      {int_param("radius", 1, 50, "1", "Window radius r: the window is (2r+1)x(2r+1) pixels")},
      {StencilPlan::Kind::Linear, {TiledKernel::Window}, {Strip, Small3x3, Packed3x3}}));

  registry.add(stencil_spec(
      "gaussian", "Gaussian blur",
      "Weighted mean with Gaussian weights exp(-d^2 / 2 sigma^2), separable; the recursive variants approximate it "
      "at a cost that does not grow with sigma",
      {float_param("sigma", 0.1, 64, "2", "Standard deviation in pixels"),
       int_param("radius", 0, 64, "0",
                 "Window radius; 0 means ceil(3 * sigma) (the recursive variants take only 0: they have no window)")},
      // Not the packed kernel: the u8 weights' 11-bit fixed point makes sums too large for its 16-bit lanes.
      {StencilPlan::Kind::Linear, {TiledKernel::Window}, {Strip, Small3x3}, true}));

  registry.add(stencil_spec(
      "sobel", "Sobel gradient",
      "3x3 Sobel derivatives: dx = [-1 0 1] x [1 2 1], dy its transpose, or the magnitude sqrt(dx^2 + dy^2). On u8 "
      "negative values saturate to 0 (use f32 to see signed derivatives)",
      {choice_param("output", {"magnitude", "dx", "dy"}, "magnitude", "Which result to produce")},
      // dx and dy are Linear plans, but with negative weights, which the packed separable kernel refuses.
      {StencilPlan::Kind::GradientMagnitude, {TiledKernel::Window}, {Strip, Small3x3}}));

  registry.add(stencil_spec(
      "laplacian", "Laplacian",
      "Discrete Laplacian, 4-neighbour [0 1 0; 1 -4 1; 0 1 0] or 8-neighbour [1 1 1; 1 -8 1; 1 1 1]. On u8 "
      "negative values saturate to 0 (use f32 for the signed result)",
      {choice_param("neighbours", {"4", "8"}, "4", "Which neighbours the operator uses")},
      {StencilPlan::Kind::Linear,
       {TiledKernel::Window, TiledKernel::WindowMulti, TiledKernel::Laplacian3x3},
       {}}));

  registry.add(stencil_spec(
      "sharpen", "Sharpen (unsharp mask)", "src + amount * (src - gaussian(src, sigma))",
      {float_param("amount", 0, 10, "1", "How much of the detail (src - blur) to add back"),
       float_param("sigma", 0.1, 16, "1", "Blur standard deviation in pixels"),
       int_param("radius", 0, 64, "0", "Blur window radius; 0 means ceil(3 * sigma)")},
      {StencilPlan::Kind::UnsharpMask, {TiledKernel::Window}, {Strip, Small3x3}}));

  KernelSpec median = stencil_spec(
      "median", "Median", "Median of the (2r+1)x(2r+1) window: removes salt-and-pepper noise, keeps edges",
      {int_param("radius", 1, 3, "1", "Window radius r: 1 is 3x3, 2 is 5x5, 3 is 7x7")},
      {StencilPlan::Kind::Median, {TiledKernel::Median}, {}});
  registry.add(std::move(median));

  ParamSpec matrix;
  matrix.name = "matrix";
  matrix.type = ParamType::Matrix;
  matrix.default_text = "0,-1,0; -1,5,-1; 0,-1,0";
  matrix.help = "Weights, rows separated by ';' and values by ','; odd sizes up to 15x15, centred on the pixel";
  ParamSpec normalize;
  normalize.name = "normalize";
  normalize.type = ParamType::Bool;
  normalize.default_text = "false";
  normalize.help = "Divide the weights by their sum (which must not be 0)";
  registry.add(stencil_spec("convolve", "Convolution (user matrix)",
                            "Weighted sum of the window with your own weights (correlation: no kernel flip, as "
                            "OpenCV's filter2D); a matrix of rank 1 (an outer product, e.g. 1,2,1;2,4,2;1,2,1) "
                            "also runs separably",
                            {matrix, normalize},
                            {StencilPlan::Kind::Linear,
                             {TiledKernel::Window, TiledKernel::WindowMulti},
                             {Strip, Small3x3, Packed3x3}}));
}

}  // namespace ks
