#include "copies/stencil_copy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "assets.hpp"
#include "copies/copy_template.hpp"
#include "core/error.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::copies {

namespace {

// Shared memory a copy's static arrays may take: CUDA's 48 KiB of static shared memory per block, in 4-byte sums.
constexpr int kSharedValues = 48 * 1024 / 4;

// `{a, b, c}` of the values, wrapped before 110 columns with lines indented by `indent` spaces; the `{` is at
// column `first_column` of its line.
template <class T>
std::string braced(const std::vector<T>& values, int indent, std::size_t first_column) {
  std::string out = "{";
  std::size_t column = first_column + 1;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string v = [&] {
      if constexpr (std::is_same_v<T, float>) return float_literal(values[i]);
      else return std::to_string(values[i]);
    }();
    if (i > 0) out += ",", ++column;
    if (column + 1 + v.size() + 2 > 110) {  // room for ", " or "};" after it
      out += '\n';
      out.append(std::size_t(indent), ' ');
      column = std::size_t(indent);
    } else if (i > 0) {
      out += ' ', ++column;
    }
    out += v;
    column += v.size();
  }
  return out + "}";
}

struct Form {
  bool u8 = false;
  std::string weight_type() const { return u8 ? "int" : "float"; }
};

// One 1-D array of weights as a __constant__ declaration.
std::string weight_array(const Form& f, const std::string& name, const std::vector<float>& w,
                         const std::vector<std::int32_t>& iw) {
  const std::string head = fmt::format("__constant__ {} {}[{}] = ", f.weight_type(), name, f.u8 ? iw.size() : w.size());
  return head + (f.u8 ? braced(iw, 4, head.size()) : braced(w, 4, head.size())) + ";\n";
}

// The 2-D window of a filter that does not separate, one window row per line.
std::string window_table(const Form& f, const std::string& name, const LinearFilter& filter) {
  std::string out = fmt::format("__constant__ {} {}[{}][{}] = {{\n", f.weight_type(), name, filter.height(),
                                filter.width());
  for (int y = 0; y < filter.height(); ++y) {
    const auto begin = std::size_t(y * filter.width()), end = begin + std::size_t(filter.width());
    out += "    " +
           (f.u8 ? braced(std::vector<std::int32_t>(filter.iw.begin() + long(begin), filter.iw.begin() + long(end)), 6, 4)
                 : braced(std::vector<float>(filter.w.begin() + long(begin), filter.w.begin() + long(end)), 6, 4));
    out += y + 1 < filter.height() ? ",\n" : "};\n";
  }
  return out;
}

// The weights and the radii: for the window copies (naive, tiled) a weight(dx, dy) per filter, for the
// separable copy the row and column factors. `suffix` names the gradient's second filter ("B").
std::string filter_weights(const Form& f, const LinearFilter& filter, const std::string& suffix, bool as_factors) {
  const std::string function = suffix.empty() ? "weight" : "weight_b";
  std::string out;
  if (filter.separable) {
    const LinearFilter::Separable& s = *filter.separable;
    out += weight_array(f, "kRowWeights" + suffix, s.wx, s.iwx);
    out += weight_array(f, "kColumnWeights" + suffix, s.wy, s.iwy);
    if (!as_factors)
      out += fmt::format("__device__ {0} {1}(int dx, int dy) {{\n  return kColumnWeights{2}[dy + kRadiusY] * "
                         "kRowWeights{2}[dx + kRadiusX];\n}}\n",
                         f.weight_type(), function, suffix);
    return out;
  }
  out += window_table(f, "kWeights" + suffix, filter);
  out += fmt::format("__device__ {0} {1}(int dx, int dy) {{ return kWeights{2}[dy + kRadiusY][dx + kRadiusX]; }}\n",
                     f.weight_type(), function, suffix);
  return out;
}

// What the window sums in and the functions that turn sums into an output pixel, as the built-in's finish()
// (gpu/stencil/cuda/stencil_device.cuh) does for each plan kind.
std::string helpers(const Form& f, StencilPlan::Kind kind) {
  std::string out;
  if (f.u8) {
    out += "// u8: the window is summed exactly in integers (the built-ins' contract), then divided and rounded once.\n"
           "using Sum = int;\n";
  } else {
    out += "// f32: the window is summed in float.\nusing Sum = float;\n";
  }
  const bool round_float = f.u8 && kind != StencilPlan::Kind::Linear;
  if (f.u8 && kind == StencilPlan::Kind::Linear)
    out += "\n// The nearest integer to sum / divisor (halves up, negative sums too), saturated to 0..255: the built-in's\n"
           "// round_div and saturate_u8 (gpu/stencil/stencil_math.hpp), which its faster divider matches exactly.\n"
           "__device__ unsigned char divide_and_round(int sum, int divisor) {\n"
           "  const long long num = 2LL * sum + divisor, den = 2LL * divisor;\n"
           "  long long q = num / den;\n"
           "  if (num % den != 0 && num < 0) --q;\n"
           "  return static_cast<unsigned char>(q < 0 ? 0 : (q > 255 ? 255 : q));\n"
           "}\n";
  if (round_float)
    out += "\n// A float rounded half up and saturated to 0..255 (NaN gives 0), as the built-ins store u8 results.\n"
           "__device__ unsigned char round_to_u8(float v) {\n"
           "  if (!(v > 0.f)) return 0;\n"
           "  if (v >= 255.f) return 255;\n"
           "  return static_cast<unsigned char>(static_cast<int>(v + 0.5f));\n"
           "}\n";
  out += "\n";
  switch (kind) {
    case StencilPlan::Kind::Linear:
      out += f.u8 ? "__device__ unsigned char finish(int sum) { return divide_and_round(sum, kDivisor); }\n"
                  : "__device__ float finish(float sum) { return sum; }\n";
      break;
    case StencilPlan::Kind::GradientMagnitude:
      out += f.u8 ? "// sqrt(a^2 + b^2) of the two exact sums, rounded as the built-in does (a^2 + b^2 < 2^24 is exact in\n"
                    "// float; __fsqrt_rn is the correctly rounded square root).\n"
                    "__device__ unsigned char finish(int a, int b) { return round_to_u8(__fsqrt_rn(float(a * a + b * b))); }\n"
                  : "// The gradient's magnitude from its two sums, dx and dy.\n"
                    "__device__ float finish(float a, float b) { return sqrtf(a * a + b * b); }\n";
      break;
    case StencilPlan::Kind::UnsharpMask:
      out += f.u8 ? "// The blur's value, then src + amount * (src - blur) with each operation rounded on its own (the _rn\n"
                    "// intrinsics: no fused multiply-add), as the built-in does so that the CPU and the GPU give the same bytes.\n"
                    "__device__ unsigned char finish(int blur_sum, unsigned char src, float amount) {\n"
                    "  const float s = float(src);\n"
                    "  const float blur = __fdiv_rn(float(blur_sum), float(kDivisor));\n"
                    "  return round_to_u8(__fadd_rn(s, __fmul_rn(amount, __fadd_rn(s, -blur))));\n"
                    "}\n"
                  : "// src + amount * (src - blur): the detail the blur removed, added back.\n"
                    "__device__ float finish(float blur, float src, float amount) { return src + amount * (src - blur); }\n";
      break;
    case StencilPlan::Kind::Median: break;
  }
  return out;
}

// The radii, the divisor (u8) and the weights of the plan's filters.
std::string weights(const Form& f, const StencilPlan& plan, bool as_factors) {
  std::string out = fmt::format("// The window: {} x {} taps around the pixel (dx, dy from -radius to +radius).\n",
                                2 * plan.radius_x() + 1, 2 * plan.radius_y() + 1);
  out += fmt::format("constexpr int kRadiusX = {}, kRadiusY = {};\n", plan.radius_x(), plan.radius_y());
  if (f.u8 && plan.kind != StencilPlan::Kind::GradientMagnitude)
    out += fmt::format("constexpr int kDivisor = {};  // what the integer window sum is divided by\n", plan.a.divisor);
  const bool factors = plan.a.separable.has_value();
  if (factors)
    out += as_factors ? "// A separable filter: tap (dx, dy) weighs kColumnWeights[dy] * kRowWeights[dx].\n"
                      : "// A separable filter: tap (dx, dy) weighs kColumnWeights[dy] * kRowWeights[dx] (the built-in "
                        "multiplies\n// them out on the host into a window of weights).\n";
  else
    out += "// The weights, one window row per line (dy = -kRadiusY first).\n";
  if (plan.kind == StencilPlan::Kind::GradientMagnitude) {
    out += "// The gradient's two filters: dx (kRowWeights, kColumnWeights) and dy (the B arrays).\n";
    out += filter_weights(f, plan.a, "", as_factors);
    out += filter_weights(f, plan.b, "B", as_factors);
  } else {
    out += filter_weights(f, plan.a, "", as_factors);
  }
  return out;
}

// The window sums of one channel into `sum` (and the gradient's second filter into `sum_b`), each window row
// summed on its own, then added, as the built-in does; `tap` is the expression that reads tap (dx, dy).
std::string window_sum(bool gradient, const std::string& tap) {
  std::string out = "    Sum sum = 0;\n";
  if (gradient) out += "    Sum sum_b = 0;  // the second filter (dy) over the same taps\n";
  out += "    for (int dy = -kRadiusY; dy <= kRadiusY; ++dy) {\n      Sum row = 0;\n";
  if (gradient) out += "      Sum row_b = 0;\n";
  out += "      for (int dx = -kRadiusX; dx <= kRadiusX; ++dx) {\n        const Sum v = " + tap +
         ";\n        row += weight(dx, dy) * v;\n";
  if (gradient) out += "        row_b += weight_b(dx, dy) * v;\n";
  out += "      }\n      sum += row;\n";
  if (gradient) out += "      sum_b += row_b;\n";
  return out + "    }";
}

// The median's selection: the built-in's select_middle (gpu/stencil/cuda/median.cu) for `pixel`.
std::string select_middle(const std::string& pixel) {
  return fmt::format(
      "// Sorts v[0..n/2] into place (selection sort, stopped at the middle), so v[n/2] is the median of the n\n"
      "// values.\n"
      "__device__ {0} select_middle({0}* v, int n) {{\n"
      "  const int mid = n / 2;\n"
      "  for (int i = 0; i <= mid; ++i) {{\n"
      "    int best = i;\n"
      "    for (int j = i + 1; j < n; ++j)\n"
      "      if (v[j] < v[best]) best = j;\n"
      "    const {0} t = v[i];\n"
      "    v[i] = v[best];\n"
      "    v[best] = t;\n"
      "  }}\n"
      "  return v[mid];\n"
      "}}\n",
      pixel);
}

// The parameters as the sidebar shows them, less the border (the copy reads the sidebar's border through in.at).
std::string params_text(const ParamSet& params) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : params.as_text())
    if (name != "border" && name != "border_value") parts.push_back(name + "=" + value);
  return parts.empty() ? std::string("no parameters") : fmt::format("{}", fmt::join(parts, ", "));
}

// The largest square block (up to 32x32) whose shared arrays hold `needed(side)` values within `capacity`.
template <class Needed>
int fitting_side(int capacity, Needed needed) {
  int side = 32;
  while (side > 1 && needed(side) > capacity) --side;
  return side;
}

std::string tiled_builtin(const StencilPlan& plan) {
  if (plan.separable())
    return "The built-in's tiled variant runs tiled_window_kernel (gpu/stencil/cuda/tiled_window.cu) for this filter.";
  return "The built-in's tiled variant runs tiled_window_kernel (gpu/stencil/cuda/tiled_window.cu) on 4-channel\n"
         "// images; on one channel window_multi_kernel (window_multi.cu: 4 outputs of a row per thread), and for the\n"
         "// u8 laplacian the register kernel separable3_packed_kernel (separable_3x3_packed.cu).";
}

const char kSeparableBuiltin[] =
    "The built-in's separable variant runs separable_strip_kernel (gpu/stencil/cuda/separable_strip.cu), or for\n"
    "// windows up to 3x3 on suitable blocks the register kernels of separable_3x3.cu and separable_3x3_packed.cu.";

}  // namespace

EditCopy stencil_copy(const KernelSpec& kernel, const std::string& variant, const ParamSet& params, ElemType type) {
  const VariantSpec* v = kernel.find_variant(variant);
  if (!v) return {std::nullopt, fmt::format("{} has no variant `{}`", kernel.id, variant)};
  if (v->backend != Backend::Cuda)
    return {std::nullopt,
            "This variant runs on the CPU (C++ with SIMD), not as a CUDA kernel: Edit a copy of the naive variant "
            "for the same result as a kernel of your own."};
  const StencilPlan plan = make_stencil_plan(kernel.id, params);
  const bool median = plan.kind == StencilPlan::Kind::Median;
  if (variant == "separable" && !plan.separable())
    return {std::nullopt, "The separable variant needs a separable filter (these parameters give none): Edit a "
                          "copy of the tiled variant."};
  if (variant == "recursive")
    return {std::nullopt,
            "The recursive variant runs seven launches (tile summaries, warm-ups and carry walks for the rows, "
            "then for the columns, then the final tiles), and the stencil family's one-launch contract cannot express even "
            "two launches: Edit a copy of the separable variant for the window Gaussian."};
  if (variant != "naive" && variant != "tiled" && variant != "separable")
    return {std::nullopt, fmt::format("No copy is written for the `{}` variant yet.", variant)};

  Form f;
  f.u8 = type == ElemType::U8;
  const std::string template_name = variant == "separable" ? "separable.cu"
                                    : median                  ? variant + "_median.cu"
                                                              : variant + "_window.cu";
  std::map<std::string, std::string> values;
  std::set<std::string> conditions;
  const std::string entry = kernel.id + "_" + variant;
  values["TITLE"] = kernel.title;
  values["KERNEL"] = kernel.id;
  values["VARIANT"] = variant;
  values["ENTRY"] = entry;
  values["PARAMS"] = comment_lines("Made at " + params_text(params) + " (the border is the sidebar's, read by in.at).");
  values["TYPE"] = f.u8 ? "u8" : "f32";
  values["PIXEL"] = f.u8 ? "unsigned char" : "float";
  values["TOLERANCE"] = f.u8 ? ", bit for bit" : ", to float rounding (the check's 1e-5 relative)";
  if (median) {
    values["RADIUS"] = std::to_string(plan.median_radius);
    values["SELECT_MIDDLE"] = select_middle(values["PIXEL"]);
  } else {
    const bool gradient = plan.kind == StencilPlan::Kind::GradientMagnitude;
    const bool unsharp = plan.kind == StencilPlan::Kind::UnsharpMask;
    if (gradient) conditions.insert("gradient");
    std::string simplified;
    if (f.u8 && plan.kind == StencilPlan::Kind::Linear)
      simplified += ";\n// its fast u8 divider is the plain rounded division, which it matches exactly";
    if (plan.a.separable && variant != "separable")
      simplified += ";\n// the window's weights are written as the separable filter's row and column factors";
    values["SIMPLIFIED"] = simplified;
    values["DECLARATIONS"] =
        unsharp ? fmt::format("// @param amount float [0, 10] = {}  how much of the detail (src - blur) to add back\n",
                              params.get_float("amount"))
                : "";
    // After `out`, on a line of its own where the signature would pass 110 columns.
    const std::string pixel = values["PIXEL"];
    const std::size_t one_line = std::string("__global__ void (ks::InImage<> in, ks::OutImage<> out, float amount) {").size() +
                                 entry.size() + 2 * pixel.size();
    values["EXTRA_PARAMETERS"] =
        !unsharp ? "" : (one_line <= 110 ? ", float amount"
                                          : ",\n" + std::string(std::string("__global__ void (").size() + entry.size(), ' ') +
                                                "float amount");
    values["FINISH_CALL"] = gradient ? "finish(sum, sum_b)" : (unsharp ? "finish(sum, in.at(x, y, c), amount)" : "finish(sum)");
    values["HELPERS"] = helpers(f, plan.kind);
    values["WEIGHTS"] = weights(f, plan, variant == "separable");
    const std::string global_tap = "Sum(in.at(x + dx, y + dy, c))";
    values["WINDOW_SUM"] =
        window_sum(gradient, variant == "tiled" ? "fits ? tile[(ty + dy) * tile_w + tx + dx] : " + global_tap : global_tap);
    const int rx = plan.radius_x(), ry = plan.radius_y();
    if (variant == "tiled") {
      values["BUILTIN_KERNEL"] = tiled_builtin(plan);
      const int capacity = std::min(kSharedValues, (32 + 2 * rx) * (32 + 2 * ry));
      values["TILE_CAPACITY"] = std::to_string(capacity);
      const int side = fitting_side(capacity, [&](int s) { return (s + 2 * rx) * (s + 2 * ry); });
      values["TILE_FITS"] = fmt::format("{0}x{0}", side);
    } else if (variant == "separable") {
      values["BUILTIN_KERNEL"] = kSeparableBuiltin;
      const int capacity = std::min(kSharedValues / (gradient ? 2 : 1), 32 * (32 + 2 * ry));
      values["TILE_CAPACITY"] = std::to_string(capacity);
      values["TILE_FITS"] = fmt::format("{0}x{0}", fitting_side(capacity, [&](int s) { return s * (s + 2 * ry); }));
      values["TWO_BUFFERS"] = gradient ? ", for each of the two filters" : "";
    }
  }
  KernelCopy copy;
  copy.file_name = entry + ".cu";
  copy.entry = entry;
  copy.family = "stencil";
  const std::string_view text = embedded::kernel_copy_template(template_name);
  if (text.empty()) throw Error(ErrorKind::Internal, "no embedded copy template " + template_name);
  copy.text = expand_template(text, values, conditions);
  return {std::move(copy), {}};
}

}  // namespace ks::copies
