#pragma once
// What the "tiled" variant runs for a plan, and the shape of its shared tile: one answer for the CUDA launch
// (stencil/cuda), the launch overlay (stencil_geometry) and the device models (stencil_kernel_resources), so the
// picture is the launch. No CUDA here: it works on a machine without a GPU.
//
//   Window       the lesson (tiled_window.cu): one thread per pixel, the block's pixels plus the halo in shared
//                memory. Every filter that also has a separable variant runs it, so naive -> tiled -> separable
//                shows what each idea is worth. One channel: each thread computes kLessonRows pixels of a column
//                (fewer instructions per pixel: the tile rows a thread reads serve several windows), and with a
//                block width that is a multiple of 4 the tile is loaded in whole quads (4 pixels per load), its
//                halo rounded out to 4 pixels.
//   Median       the median's selection networks (median_network.cu): 4 elements of a row per thread (a u8 word,
//                or a float4), several rows, two output rows per step, selection work shared between
//                neighbouring outputs (3x3: columns sorted once, u8 tile rows' words held in registers; 5x5 and
//                7x7: the window rows two vertically adjacent outputs share selected once).
//   Laplacian3x3 the laplacian (4 or 8 neighbours) on one-channel u8 images, blocks of whole groups of 8, 16 or
//                32 lanes: no shared tile; the register kernel of the separable 3x3 box (separable_3x3_packed.cu):
//                16 pixels of a row per lane, rows walked down in registers, horizontal neighbours by lane
//                shuffles, two pixels per 32-bit register (it ran window_multi before; docs/PERF.md).
//   WindowMulti  linear filters that do not separate (laplacian, convolve with a matrix of rank > 1), one
//                channel, up to 15x15 (window_multi.cu): 4 outputs of a row per thread, several rows.
#include <cstddef>
#include <string>

#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks {

enum class TiledKernel { Window, Median, WindowMulti, Laplacian3x3 };

struct TiledDesign {
  TiledKernel kernel = TiledKernel::Window;
  int cells_x = 1, cells_y = 1;  // pixels per thread along a row, rows per thread (contiguous)
  int halo_x = 0, halo_y = 0;    // pixels the tile reaches past the block's (>= the radius: whole words)
  int tile_width = 0, tile_height = 0;  // pixels, halo included
  bool quad_loads = false;       // Window: the tile is loaded 4 pixels at a time (one channel)
  std::size_t row_pitch = 0;     // bytes between tile rows in shared memory (padded against bank conflicts)
  std::size_t weight_bytes = 0;  // WindowMulti: the window's weights, after the tile
  std::size_t shared_bytes = 0;  // dynamic shared memory per block
  std::string kernel_name;       // as the CUDA occupancy report names it, e.g. "median_network<u8,1,r1>"
};

// Pixels of a column each thread of the lesson computes on one-channel images (1 where that tile would pass
// 48 KiB; RGBA: 1).
inline constexpr int kLessonRows = 4;
// Elements a thread of the Median and WindowMulti kernels owns along a row: one u8 word or one float4.
inline constexpr int kQuad = 4;
// Rows each thread of those kernels walks, at most (fewer where the tile would pass 48 KiB).
inline constexpr int kRowsPerThread = 4;
// WindowMulti takes windows up to this radius on either axis (convolve's 15x15).
inline constexpr int kWindowMultiMaxRadius = 7;

TiledDesign tiled_design(const StencilPlan& plan, ElemType type, int channels, BlockShape block);

// Lanes per shuffle group of the 3x3 register kernels (32, 16 or 8: the block's width up to a warp), 0 when the
// block does not suit them (the shuffles need full warps and groups of a power-of-two width of at least 8).
int shuffle_group(BlockShape block);
// 4 or 8 when the plan is the 3x3 laplacian of that many neighbours (weights and divisor exactly), else 0.
int laplacian3x3_neighbours(const StencilPlan& plan);
// Pixels of a row per lane and rows per thread of the Laplacian3x3 kernel.
inline constexpr int kLaplacianLaneBytes = 16;
inline constexpr int kLaplacianRows = 6;
std::string laplacian3x3_kernel_name(int neighbours);  // "laplacian3x3_packed<u8,1,n4>"

}  // namespace ks
