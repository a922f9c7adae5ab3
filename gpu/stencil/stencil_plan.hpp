#pragma once
// A stencil request compiled into what the backends execute. Seven user-facing kernels reduce to four shapes:
//   Linear            box, gaussian, sobel dx/dy, laplacian, convolve: one weighted window
//   GradientMagnitude sobel magnitude: sqrt(a^2 + b^2) of two linear filters
//   UnsharpMask       sharpen: src + amount * (src - blur), blur linear
//   Median            median of the (2r+1)^2 window
//
// Arithmetic contract, identical on every backend and variant (the tests rely on it):
// - F32: weights `w` in float; sums in float on CUDA and in the CPU backend's SIMD loops, in double in the
//   CPU's scalar reference (so the others are compared with it within a relative tolerance).
// - U8: integer weights `iw` and an integer `divisor`; the window sum is exact in int32, the result is
//   round_div(sum, divisor) (round half up, floor division for negatives) saturated to 0..255. A separable
//   filter's row and column passes give the same integer sum as the 2-D window, so every variant is bit-exact.
// - Constant border on U8: the border value is read as saturate_u8(border_value) (rounded half up, 0..255),
//   so that sums stay integers.
// - GradientMagnitude on U8: the two exact integer sums a, b (divisor 1), then
//   sqrtf(float(a*a + b*b)) rounded half up and saturated (exact in float: a*a + b*b < 2^24).
// - UnsharpMask on U8: blur = float(sum) / float(divisor); v = src + amount * (src - blur) with each operation
//   rounded separately (no FMA contraction: see stencil_math.hpp); then rounded half up and saturated.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "registry/params.hpp"
#include "stencil/border.hpp"

namespace ks {

struct LinearFilter {
  int rx = 0;  // horizontal radius: the window is (2*ry+1) rows x (2*rx+1) columns
  int ry = 0;
  std::vector<float> w;  // row-major window weights (F32 path)
  std::vector<std::int32_t> iw;  // row-major integer weights (U8 path)
  std::int32_t divisor = 1;      // U8 path: result = round_div(sum(iw * px), divisor)

  // Present when the window is the outer product of a column vector and a row vector:
  // w[y][x] == wy[y] * wx[x] (within float rounding) and iw[y][x] == iwy[y] * iwx[x] (exactly).
  struct Separable {
    std::vector<float> wx, wy;
    std::vector<std::int32_t> iwx, iwy;
  };
  std::optional<Separable> separable;

  int width() const noexcept { return 2 * rx + 1; }
  int height() const noexcept { return 2 * ry + 1; }
};

struct StencilPlan {
  enum class Kind { Linear, GradientMagnitude, UnsharpMask, Median };
  Kind kind = Kind::Linear;
  LinearFilter a;        // Linear: the filter; GradientMagnitude: d/dx; UnsharpMask: the blur
  LinearFilter b;        // GradientMagnitude: d/dy
  float amount = 0.f;    // UnsharpMask
  int median_radius = 0; // Median
  double gaussian_sigma = 0;  // gaussian: the sigma its recursive variants filter with (stencil/recursive_gaussian.hpp)
  Border border = Border::Reflect101;
  float border_value = 0.f;  // Constant border, in the image's own units (0..255 for U8)

  int radius_x() const noexcept;  // halo a backend must read around each output pixel
  int radius_y() const noexcept;
  bool separable() const noexcept;  // every linear part separates
};

// Builds the plan for a stencil kernel of the registry (`box`, `gaussian`, ...) from its checked parameters.
// Throws a usage Error for combinations the ranges alone cannot catch (e.g. normalising weights that sum to 0).
StencilPlan make_stencil_plan(const std::string& kernel_id, const ParamSet& params);

// Whether every U8 sum of the plan's linear filters (partial sums included) fits int16: the CPU's SIMD path
// then sums in int16 lanes (twice as many as int32), and the cost model counts those operations on 16-bit
// lanes.
bool u8_sums_fit_int16(const StencilPlan& plan);

}  // namespace ks
