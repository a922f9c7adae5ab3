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
    EXPECT_EQ(d.cells_y, kLessonRows);
    EXPECT_EQ(tiled_design(plan_of(id), ElemType::U8, 4, {32, 8}).cells_y, 1) << id;
  }
  EXPECT_EQ(tiled_design(plan_of("convolve", {"matrix=1,2,1;2,4,2;1,2,1"}), ElemType::F32, 1, {32, 8}).kernel,
            TiledKernel::Window);
  // The lesson's 3x3 u8 tile at 32x8, 4 rows per thread, loaded 4 pixels at a time: the halo rounded out to 4,
  // 40 x 34 bytes.
  const TiledDesign box = tiled_design(plan_of("box"), ElemType::U8, 1, {32, 8});
  EXPECT_TRUE(box.quad_loads);
  EXPECT_EQ(box.halo_x, 4);
  EXPECT_EQ(box.halo_y, 1);
  EXPECT_EQ(box.tile_height, 8 * kLessonRows + 2);
  EXPECT_EQ(box.row_pitch, 40u);
  EXPECT_EQ(box.shared_bytes, 40u * 34u);
  // A tile that would pass 48 KiB with 4 rows per thread: one row.
  const TiledDesign big = tiled_design(plan_of("box", {"radius=24"}), ElemType::F32, 1, {32, 32});
  EXPECT_EQ(big.cells_y, 1);
  EXPECT_LE(big.shared_bytes, 48u * 1024);
  // f32 quads are float4: 16-byte rows.
  const TiledDesign boxf = tiled_design(plan_of("box", {"radius=5"}), ElemType::F32, 1, {36, 4});
  EXPECT_TRUE(boxf.quad_loads);
  EXPECT_EQ(boxf.halo_x, 8);
  EXPECT_EQ(boxf.row_pitch % 16, 0u);
  EXPECT_GE(boxf.row_pitch, (36u + 16u) * 4u);
  // A width that is not a multiple of 4, or RGBA: a pixel per load, the halo is the radius.
  for (const TiledDesign& d : {tiled_design(plan_of("box"), ElemType::U8, 1, {30, 8}),
                               tiled_design(plan_of("box"), ElemType::U8, 4, {32, 8})}) {
    EXPECT_FALSE(d.quad_loads);
    EXPECT_EQ(d.halo_x, 1);
  }
}

// The overlay draws the lesson's tile as it is loaded, the halo rounded out to whole quads.
TEST(TiledDesign, TheOverlayDrawsTheLessonsQuadHalo) {
  const StencilPlan box = plan_of("box", {"radius=2"});
  const LaunchGeometry g = *stencil_geometry(box, "tiled", 1000, 600, {32, 8}, ElemType::U8, 1).geometry;
  const TiledDesign d = tiled_design(box, ElemType::U8, 1, {32, 8});
  EXPECT_EQ(g.tile_width(), d.tile_width);
  EXPECT_EQ(g.tile_height(), d.tile_height);
  EXPECT_EQ(g.cells_y, kLessonRows);
  EXPECT_EQ(g.grid_y(), (600 + 8 * kLessonRows - 1) / (8 * kLessonRows));
  EXPECT_EQ(tile_rect(g, 1, 0).x0, 32 - 4);
  EXPECT_EQ(tile_rect(g, 1, 1).y0, 8 * kLessonRows - 2);
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

// The u8 one-channel laplacians run the 3x3 register kernel where the block suits its shuffles; the overlay says
// why it draws no tile, the device model knows the kernel.
TEST(TiledDesign, TheU8LaplacianRunsTheRegisterKernel) {
  for (const char* n : {"neighbours=4", "neighbours=8"}) {
    const StencilPlan lap = plan_of("laplacian", {n});
    const TiledDesign d = tiled_design(lap, ElemType::U8, 1, {32, 8});
    EXPECT_EQ(d.kernel, TiledKernel::Laplacian3x3) << n;
    EXPECT_EQ(d.kernel_name, laplacian3x3_kernel_name(laplacian3x3_neighbours(lap)));
    EXPECT_EQ(d.shared_bytes, 0u);
    const StencilGeometry g = stencil_geometry(lap, "tiled", 1000, 600, {32, 8}, ElemType::U8, 1);
    EXPECT_FALSE(g.geometry);
    EXPECT_FALSE(g.why_not.empty());
    const LaunchGeometry naive = *stencil_geometry(lap, "naive", 1000, 600, {32, 8}, ElemType::U8, 1).geometry;
    const std::optional<KernelResources> r = stencil_kernel_resources(lap, "tiled", ElemType::U8, 1, naive);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->kernel_name, d.kernel_name);
    EXPECT_GT(r->registers_per_thread, 0);
    // f32, RGBA, a block whose width is not a group of 8, 16 or 32 lanes: the shared-tile kernels.
    EXPECT_EQ(tiled_design(lap, ElemType::F32, 1, {32, 8}).kernel, TiledKernel::WindowMulti);
    EXPECT_EQ(tiled_design(lap, ElemType::U8, 4, {32, 8}).kernel, TiledKernel::Window);
    EXPECT_EQ(tiled_design(lap, ElemType::U8, 1, {1, 64}).kernel, TiledKernel::WindowMulti);
    EXPECT_EQ(tiled_design(lap, ElemType::U8, 1, {12, 8}).kernel, TiledKernel::WindowMulti);
  }
  EXPECT_EQ(laplacian3x3_neighbours(plan_of("laplacian", {"neighbours=4"})), 4);
  EXPECT_EQ(laplacian3x3_neighbours(plan_of("laplacian", {"neighbours=8"})), 8);
  // Other 3x3 matrices, even with the laplacian's pattern scaled or normalised, are not laplacians.
  EXPECT_EQ(laplacian3x3_neighbours(plan_of("convolve", {"matrix=0,2,0;2,-8,2;0,2,0"})), 0);
  EXPECT_EQ(laplacian3x3_neighbours(plan_of("convolve", {"matrix=1,-2,3;-4,5,-6;7,-8,9"})), 0);
  EXPECT_EQ(laplacian3x3_neighbours(plan_of("convolve", {"matrix=0,1,0;1,-4,1;0,1,0"})), 4);
  EXPECT_EQ(shuffle_group({32, 8}), 32);
  EXPECT_EQ(shuffle_group({16, 16}), 16);
  EXPECT_EQ(shuffle_group({8, 8}), 8);
  EXPECT_EQ(shuffle_group({1, 64}), 0);
  EXPECT_EQ(shuffle_group({8, 2}), 0);  // 16 threads: not a whole warp
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
