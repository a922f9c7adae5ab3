// What the tiled variant runs, and the launch overlay's picture of it: the same numbers (stencil/tiled_design.hpp).
#include <gtest/gtest.h>

#include "registry/registry.hpp"
#include "stencil/stencil_geometry.hpp"
#include "stencil/stencil_kernel_resources.hpp"
#include "stencil/tiled_design.hpp"

namespace ks {
namespace {

StencilPlan plan_of(const std::string& id, std::initializer_list<const char*> assignments = {}) {
  ParamSet p = KernelRegistry::builtin().get(id).default_params();
  for (const char* a : assignments) p.set_assignment(a);
  return make_stencil_plan(id, p);
}

TEST(TiledDesign, FiltersWithASeparableVariantKeepTheLesson) {
  for (const char* id : {"box", "gaussian", "sobel", "sharpen"}) {
    const TiledDesign d = tiled_design(plan_of(id), ElemType::U8, 1, {32, 8});
    EXPECT_EQ(d.kernel, TiledKernel::Window) << id;
    EXPECT_EQ(d.cells_x, 1);
    EXPECT_EQ(d.cells_y, 1);
  }
  EXPECT_EQ(tiled_design(plan_of("convolve", {"matrix=1,2,1;2,4,2;1,2,1"}), ElemType::F32, 1, {32, 8}).kernel,
            TiledKernel::Window);
  // The lesson's 3x3 u8 tile at 32x8: 34 x 10 bytes, rows padded to whole words.
  const TiledDesign box = tiled_design(plan_of("box"), ElemType::U8, 1, {32, 8});
  EXPECT_EQ(box.row_pitch, 36u);
  EXPECT_EQ(box.shared_bytes, 360u);
}

TEST(TiledDesign, NonSeparableFiltersAndTheMedianRunTheirOwnKernels) {
  const TiledDesign lap = tiled_design(plan_of("laplacian"), ElemType::F32, 1, {32, 8});
  EXPECT_EQ(lap.kernel, TiledKernel::WindowMulti);
  EXPECT_EQ(lap.kernel_name, "window_multi<f32,1,rx1>");
  EXPECT_EQ(lap.cells_x, 4);
  EXPECT_EQ(lap.halo_x, 4);  // one float4 on each side
  EXPECT_EQ(lap.tile_width, 32 * 4 + 8);
  EXPECT_EQ(tiled_design(plan_of("laplacian"), ElemType::F32, 4, {32, 8}).kernel, TiledKernel::Window)
      << "window_multi takes one channel";
  const TiledDesign med = tiled_design(plan_of("median", {"radius=3"}), ElemType::U8, 4, {32, 8});
  EXPECT_EQ(med.kernel, TiledKernel::Median);
  EXPECT_EQ(med.kernel_name, "median_network<u8,4,r3>");
  EXPECT_EQ(med.cells_x, 1);  // a quad is one RGBA pixel
  EXPECT_EQ(med.halo_x, 3);
  // A tall block: fewer rows per thread, so the tile stays within 48 KiB.
  const TiledDesign tall = tiled_design(plan_of("median", {"radius=3"}), ElemType::F32, 4, {32, 32});
  EXPECT_LT(tall.cells_y, kRowsPerThread);
  EXPECT_LE(tall.shared_bytes, 48u * 1024);
}

// A 16-wide block puts two tile rows in one warp: the pitch keeps them on different banks.
TEST(TiledDesign, NarrowBlocksPadTheRowPitch) {
  const TiledDesign d = tiled_design(plan_of("box"), ElemType::F32, 1, {16, 16});
  EXPECT_EQ(d.row_pitch / 4 % 32, 16u);
  EXPECT_GE(d.row_pitch, 18u * 4);
}

// Designs are made before the launch is validated: blocks no GPU runs must not break them.
TEST(TiledDesign, InvalidBlocksStillGiveADesign) {
  for (BlockShape b : {BlockShape{0, 8}, BlockShape{8, 0}, BlockShape{1, 2048}, BlockShape{2048, 1}})
    for (const char* id : {"box", "median", "laplacian"})
      EXPECT_GT(tiled_design(plan_of(id), ElemType::F32, 1, b).row_pitch, 0u) << id;
}

TEST(TiledDesign, TheOverlayDrawsTheKernelThatRuns) {
  const StencilPlan med = plan_of("median");
  const LaunchGeometry g = *stencil_geometry(med, "tiled", 1000, 600, {32, 8}, ElemType::U8, 1).geometry;
  const TiledDesign d = tiled_design(med, ElemType::U8, 1, {32, 8});
  EXPECT_EQ(g.cells_x, d.cells_x);
  EXPECT_EQ(g.cells_y, d.cells_y);
  EXPECT_EQ(g.tile_width(), d.tile_width);
  EXPECT_EQ(g.tile_height(), d.tile_height);
  EXPECT_EQ(g.grid_x(), (1000 + 127) / 128);
  EXPECT_EQ(tile_rect(g, 1, 0).x0, 128 - 4);
  const std::optional<KernelResources> r = stencil_kernel_resources(med, "tiled", ElemType::U8, 1, g);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kernel_name, "median_network<u8,1,r1>");
  EXPECT_GT(r->registers_per_thread, 0);
  EXPECT_EQ(r->shared_bytes, d.shared_bytes);
}

}  // namespace
}  // namespace ks
