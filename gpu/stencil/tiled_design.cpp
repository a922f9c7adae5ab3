#include "stencil/tiled_design.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace ks {

namespace {

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The tile's row pitch in bytes: `needed` rounded up to whole units of `unit` bytes (4: a bank's word; 16: the
// float4 a lane reads at once) and, for blocks narrower than a warp's access (32 words, or 8 float4 per phase),
// padded so that the rows one warp touches start `block_x` units apart modulo the banks: each row of the warp
// then lands on banks of its own (without the pad, a 16-wide block's second row reused the first row's banks).
std::size_t conflict_free_pitch(std::size_t needed, int block_x, int unit) {
  const int lanes = 128 / unit;  // units one access phase covers: 32 words or 8 float4
  int units = int((needed + std::size_t(unit) - 1) / std::size_t(unit));
  if (block_x > 0 && block_x < lanes && lanes % block_x == 0) units += ((block_x - units) % lanes + lanes) % lanes;
  return std::size_t(units) * std::size_t(unit);
}

std::string name_of(const char* what, ElemType type, int channels, const std::string& detail) {
  return fmt::format("{}<{},{}{}{}>", what, type == ElemType::U8 ? "u8" : "f32", channels, detail.empty() ? "" : ",",
                     detail);
}

const char* finish_of(const StencilPlan& plan) {
  return plan.kind == StencilPlan::Kind::GradientMagnitude ? "gradient"
         : plan.kind == StencilPlan::Kind::UnsharpMask     ? "unsharp"
                                                           : "linear";
}

// The lesson: (bx + 2 rx) x (by + 2 ry) pixels, each thread reads whole pixels.
TiledDesign window_design(const StencilPlan& plan, ElemType type, int channels, BlockShape block) {
  TiledDesign d;
  d.kernel = TiledKernel::Window;
  d.halo_x = plan.radius_x();
  d.halo_y = plan.radius_y();
  d.tile_width = block.x + 2 * d.halo_x;
  d.tile_height = block.y + 2 * d.halo_y;
  const int pixel_bytes = channels * (type == ElemType::U8 ? 1 : 4);
  d.row_pitch = conflict_free_pitch(std::size_t(d.tile_width) * std::size_t(pixel_bytes), block.x,
                                    pixel_bytes == 16 ? 16 : 4);
  d.shared_bytes = d.row_pitch * std::size_t(d.tile_height);
  d.kernel_name = name_of("tiled_window", type, channels, finish_of(plan));
  return d;
}

// Median and WindowMulti: kQuad elements per thread, halo in whole quads (u8 words, float4), rows walked down.
TiledDesign quad_design(TiledKernel kernel, int rx, int ry, ElemType type, int channels, BlockShape block,
                        std::size_t weight_bytes, std::string name) {
  TiledDesign d;
  d.kernel = kernel;
  const int halo_quads = ceil_div(rx * channels, kQuad);
  const int elem = type == ElemType::U8 ? 1 : 4;
  d.cells_x = kQuad / channels;
  d.halo_x = halo_quads * kQuad / channels;
  d.halo_y = ry;
  d.tile_width = block.x * d.cells_x + 2 * d.halo_x;
  d.weight_bytes = weight_bytes;
  d.row_pitch = conflict_free_pitch(std::size_t(d.tile_width) * std::size_t(channels * elem), block.x,
                                    kQuad * elem);
  // The most rows per thread whose tile stays within 48 KiB (full occupancy needs less; more rows per thread
  // share the halo rows between more outputs).
  for (d.cells_y = kRowsPerThread;; d.cells_y /= 2) {
    d.tile_height = block.y * d.cells_y + 2 * d.halo_y;
    d.shared_bytes = d.row_pitch * std::size_t(d.tile_height) + weight_bytes;
    if (d.cells_y == 1 || d.shared_bytes <= 48 * 1024) break;
  }
  d.kernel_name = std::move(name);
  return d;
}

bool window_multi_applies(const StencilPlan& plan, int channels) {
  return plan.kind == StencilPlan::Kind::Linear && !plan.separable() && channels == 1 &&
         plan.radius_x() <= kWindowMultiMaxRadius && plan.radius_y() <= kWindowMultiMaxRadius;
}

}  // namespace

TiledDesign tiled_design(const StencilPlan& plan, ElemType type, int channels, BlockShape block) {
  const int rx = plan.radius_x(), ry = plan.radius_y();
  if (plan.kind == StencilPlan::Kind::Median)
    return quad_design(TiledKernel::Median, rx, ry, type, channels, block, 0,
                       name_of("median_network", type, channels, fmt::format("r{}", rx)));
  if (window_multi_applies(plan, channels)) {
    const std::size_t weights = std::size_t(2 * rx + 1) * std::size_t(2 * ry + 1) * 4;
    return quad_design(TiledKernel::WindowMulti, rx, ry, type, channels, block, (weights + 15) / 16 * 16,
                       name_of("window_multi", type, channels, fmt::format("rx{}", rx)));
  }
  return window_design(plan, type, channels, block);
}

}  // namespace ks
