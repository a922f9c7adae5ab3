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

// The lesson: (bx + 2 hx) x (by + 2 ry) pixels, each load a whole pixel (RGBA) or 4 pixels (one channel, blocks
// whose width is a multiple of 4: every block's tile then starts on a quad, the halo rounded out to 4 pixels).
TiledDesign window_design(const StencilPlan& plan, ElemType type, int channels, BlockShape block) {
  TiledDesign d;
  d.kernel = TiledKernel::Window;
  d.quad_loads = channels == 1 && block.x > 0 && block.x % kQuad == 0;
  d.halo_x = d.quad_loads ? ceil_div(plan.radius_x(), kQuad) * kQuad : plan.radius_x();
  d.halo_y = plan.radius_y();
  d.tile_width = block.x + 2 * d.halo_x;
  const int pixel_bytes = channels * (type == ElemType::U8 ? 1 : 4);
  d.row_pitch = conflict_free_pitch(std::size_t(d.tile_width) * std::size_t(pixel_bytes), block.x,
                                    pixel_bytes == 16 ? 16 : 4);
  // f32 quads are float4: rows start on 16 bytes (for blocks narrower than a warp the pad above already does).
  if (d.quad_loads && type == ElemType::F32) d.row_pitch = (d.row_pitch + 15) / 16 * 16;
  d.cells_y = channels == 1 ? kLessonRows : 1;
  for (;; d.cells_y = 1) {
    d.tile_height = block.y * d.cells_y + 2 * d.halo_y;
    d.shared_bytes = d.row_pitch * std::size_t(d.tile_height);
    if (d.cells_y == 1 || d.shared_bytes <= 48 * 1024) break;
  }
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

int shuffle_group(BlockShape b) {
  if (b.x <= 0 || b.y <= 0 || (b.x * b.y) % 32 != 0) return 0;
  if (b.x % 32 == 0) return 32;
  if (b.x == 16 || b.x == 8) return b.x;
  return 0;
}

int laplacian3x3_neighbours(const StencilPlan& plan) {
  if (plan.kind != StencilPlan::Kind::Linear || plan.a.rx != 1 || plan.a.ry != 1 || plan.a.divisor != 1) return 0;
  const std::vector<std::int32_t> four{0, 1, 0, 1, -4, 1, 0, 1, 0}, eight{1, 1, 1, 1, -8, 1, 1, 1, 1};
  return plan.a.iw == four ? 4 : plan.a.iw == eight ? 8 : 0;
}

std::string laplacian3x3_kernel_name(int neighbours) {
  return fmt::format("laplacian3x3_packed<u8,1,n{}>", neighbours);
}

TiledDesign tiled_design(const StencilPlan& plan, ElemType type, int channels, BlockShape block) {
  const int rx = plan.radius_x(), ry = plan.radius_y();
  if (plan.kind == StencilPlan::Kind::Median)
    return quad_design(TiledKernel::Median, rx, ry, type, channels, block, 0,
                       name_of("median_network", type, channels, fmt::format("r{}", rx)));
  if (type == ElemType::U8 && channels == 1 && shuffle_group(block) != 0) {
    if (const int n = laplacian3x3_neighbours(plan)) {
      TiledDesign d;
      d.kernel = TiledKernel::Laplacian3x3;
      d.cells_x = kLaplacianLaneBytes;
      d.cells_y = kLaplacianRows;
      d.halo_x = d.halo_y = 1;
      d.kernel_name = laplacian3x3_kernel_name(n);
      return d;
    }
  }
  if (window_multi_applies(plan, channels)) {
    const std::size_t weights = std::size_t(2 * rx + 1) * std::size_t(2 * ry + 1) * 4;
    return quad_design(TiledKernel::WindowMulti, rx, ry, type, channels, block, (weights + 15) / 16 * 16,
                       name_of("window_multi", type, channels, fmt::format("rx{}", rx)));
  }
  return window_design(plan, type, channels, block);
}

}  // namespace ks
