#pragma once
// What the "tiled" variant runs for a plan, and the shape of its shared tile: one answer for the CUDA launch
// (stencil/cuda), the launch overlay (stencil_geometry) and the device models (stencil_kernel_resources), so the
// picture is the launch. No CUDA here: it works on a machine without a GPU.
//
//   Window       the lesson (tiled_window.cu): one thread per pixel, the block's pixels plus the halo in shared
//                memory. Every filter that also has a separable variant runs it, so naive -> tiled -> separable
//                shows what each idea is worth.
//   Median       the median's selection networks (median_network.cu): 4 elements of a row per thread (a u8 word,
//                or a float4), several rows, column sorts shared between neighbouring outputs.
//   WindowMulti  linear filters that do not separate (laplacian, convolve with a matrix of rank > 1), one
//                channel, up to 15x15 (window_multi.cu): 4 outputs of a row per thread, several rows.
#include <cstddef>
#include <string>

#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks {

enum class TiledKernel { Window, Median, WindowMulti };

struct TiledDesign {
  TiledKernel kernel = TiledKernel::Window;
  int cells_x = 1, cells_y = 1;  // pixels per thread along a row, rows per thread (contiguous)
  int halo_x = 0, halo_y = 0;    // pixels the tile reaches past the block's (>= the radius: whole words)
  int tile_width = 0, tile_height = 0;  // pixels, halo included
  std::size_t row_pitch = 0;     // bytes between tile rows in shared memory (padded against bank conflicts)
  std::size_t weight_bytes = 0;  // WindowMulti: the window's weights, after the tile
  std::size_t shared_bytes = 0;  // dynamic shared memory per block
  std::string kernel_name;       // as the CUDA occupancy report names it, e.g. "median_network<u8,1,r1>"
};

// Elements a thread of the Median and WindowMulti kernels owns along a row: one u8 word or one float4.
inline constexpr int kQuad = 4;
// Rows each thread of those kernels walks, at most (fewer where the tile would pass 48 KiB).
inline constexpr int kRowsPerThread = 4;
// WindowMulti takes windows up to this radius on either axis (convolve's 15x15).
inline constexpr int kWindowMultiMaxRadius = 7;

TiledDesign tiled_design(const StencilPlan& plan, ElemType type, int channels, BlockShape block);

}  // namespace ks
