// The stencil kernels as the registry describes them. Each entry: parameters (with ranges and help), variants,
// and a cost model. Execution goes through make_stencil_plan and the CPU / CUDA backends.
#include <cmath>

#include "registry/registry.hpp"
#include "stencil/stencil_plan.hpp"

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

VariantSpec cpu_variant() {
  return {"cpu", Backend::Cpu, "CPU reference, threaded across all cores; the ground truth of the tests"};
}
VariantSpec naive_variant() {
  return {"naive", Backend::Cuda,
          "One thread per output pixel reading every tap from global memory: the teaching baseline"};
}
VariantSpec tiled_variant() {
  return {"tiled", Backend::Cuda, "Each block loads its tile plus halo into shared memory once, then computes"};
}
VariantSpec separable_variant() {
  return {"separable", Backend::Cuda,
          "A row pass then a column pass: (2r+1)*2 taps per pixel instead of (2r+1)^2"};
}

// The fewest bytes a stencil must move: read the image once, write it once. Operations: a multiply and an add
// per tap of the work the plan needs (separable filters count their two 1-D passes).
CostModel stencil_cost(const std::string& id, const ImageShape& shape, const ParamSet& params) {
  const StencilPlan plan = make_stencil_plan(id, params);
  const double elements = double(shape.pixel_count()) * shape.channels;
  auto taps = [](const LinearFilter& f) {
    return f.separable ? double(f.width() + f.height()) : double(f.width()) * f.height();
  };
  double ops = 0;
  switch (plan.kind) {
    case StencilPlan::Kind::Linear: ops = 2 * taps(plan.a); break;
    case StencilPlan::Kind::GradientMagnitude: ops = 2 * (taps(plan.a) + taps(plan.b)) + 4; break;
    case StencilPlan::Kind::UnsharpMask: ops = 2 * taps(plan.a) + 3; break;
    case StencilPlan::Kind::Median: {
      const double n = double(2 * plan.median_radius + 1) * (2 * plan.median_radius + 1);
      ops = n * std::log2(n);  // comparisons of a selection
      break;
    }
  }
  CostModel c;
  c.bytes = 2 * shape.byte_size();
  c.operations = static_cast<std::uint64_t>(ops * elements);
  return c;
}

KernelSpec stencil_spec(std::string id, std::string title, std::string description, std::vector<ParamSpec> params,
                        bool has_separable) {
  KernelSpec k;
  k.id = id;
  k.title = std::move(title);
  k.category = "stencil";
  k.description = std::move(description);
  k.params = std::move(params);
  add_border_params(k.params);
  k.variants = {cpu_variant(), naive_variant(), tiled_variant()};
  if (has_separable) k.variants.push_back(separable_variant());
  k.types = {ElemType::U8, ElemType::F32};
  k.channels = {1, 4};
  k.cost = [id](const ImageShape& shape, const ParamSet& p) { return stencil_cost(id, shape, p); };
  k.unavailable_reason = [id](const std::string& variant, const ParamSet& p) -> std::optional<std::string> {
    if (variant == "separable" && !make_stencil_plan(id, p).separable())
      return "the separable variant needs a separable filter; use tiled";
    return std::nullopt;
  };
  return k;
}

}  // namespace

void register_stencil_kernels(KernelRegistry& registry) {
  registry.add(stencil_spec(
      "box", "Box blur", "Mean of the (2r+1)x(2r+1) window; on u8 rounded to nearest as OpenCV's blur does",
      {int_param("radius", 1, 50, "1", "Window radius r: the window is (2r+1)x(2r+1) pixels")}, true));

  registry.add(stencil_spec(
      "gaussian", "Gaussian blur", "Weighted mean with Gaussian weights exp(-d^2 / 2 sigma^2), separable",
      {float_param("sigma", 0.1, 16, "2", "Standard deviation in pixels"),
       int_param("radius", 0, 64, "0", "Window radius; 0 means ceil(3 * sigma)")},
      true));

  registry.add(stencil_spec(
      "sobel", "Sobel gradient",
      "3x3 Sobel derivatives: dx = [-1 0 1] x [1 2 1], dy its transpose, or the magnitude sqrt(dx^2 + dy^2). On u8 "
      "negative values saturate to 0 (use f32 to see signed derivatives)",
      {choice_param("output", {"magnitude", "dx", "dy"}, "magnitude", "Which result to produce")}, true));

  registry.add(stencil_spec(
      "laplacian", "Laplacian",
      "Discrete Laplacian, 4-neighbour [0 1 0; 1 -4 1; 0 1 0] or 8-neighbour [1 1 1; 1 -8 1; 1 1 1]. On u8 "
      "negative values saturate to 0 (use f32 for the signed result)",
      {choice_param("neighbours", {"4", "8"}, "4", "Which neighbours the operator uses")}, false));

  registry.add(stencil_spec(
      "sharpen", "Sharpen (unsharp mask)", "src + amount * (src - gaussian(src, sigma))",
      {float_param("amount", 0, 10, "1", "How much of the detail (src - blur) to add back"),
       float_param("sigma", 0.1, 16, "1", "Blur standard deviation in pixels"),
       int_param("radius", 0, 64, "0", "Blur window radius; 0 means ceil(3 * sigma)")},
      true));

  KernelSpec median = stencil_spec(
      "median", "Median", "Median of the (2r+1)x(2r+1) window: removes salt-and-pepper noise, keeps edges",
      {int_param("radius", 1, 3, "1", "Window radius r: 1 is 3x3, 2 is 5x5, 3 is 7x7")}, false);
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
                            {matrix, normalize}, true));
}

}  // namespace ks
