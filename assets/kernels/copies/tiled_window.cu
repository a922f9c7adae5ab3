// {{TITLE}}: the built-in kernel `{{KERNEL}}`, variant `{{VARIANT}}`, copied as your own kernel.
// {{BUILTIN_KERNEL}}
// This copy has its parameters and the {{TYPE}} type filled in, so it gives the built-in's result on {{TYPE}}
// images{{TOLERANCE}}.
// {{PARAMS}}
// Shared memory: a block first loads the pixels its outputs need (its own, plus a halo of the window's radius
// around them) into a tile, once; then every tap is a read of the tile instead of global memory. in.at()
// applies the border mode chosen in the sidebar while the tile loads, so the taps need no border rule.
// Simplified from the built-in: one channel per pass over the tile, one output per thread, the tile's size
// taken from the block at run time; the built-in's vector loads, several outputs per thread, radii known at
// compile time and bank-conflict-free row pitch are left out{{SIMPLIFIED}}.
// This file is yours: change it, Run it, and the Your kernel section checks it against the built-in.
// @family stencil
{{DECLARATIONS}}
{{WEIGHTS}}
{{HELPERS}}
// The tile: (block width + 2 rx) x (block height + 2 ry) values. Shared memory is sized at compile time, so
// it holds {{TILE_CAPACITY}} values, enough for blocks up to {{TILE_FITS}} at this radius; a block whose tile would not fit reads
// every tap from global memory instead (as the naive variant does), so every block size gives the result.
constexpr int kTileCapacity = {{TILE_CAPACITY}};

__global__ void {{ENTRY}}(ks::InImage<{{PIXEL}}> in, ks::OutImage<{{PIXEL}}> out{{EXTRA_PARAMETERS}}) {
  __shared__ Sum tile[kTileCapacity];
  const int tile_w = int(blockDim.x) + 2 * kRadiusX;
  const int tile_h = int(blockDim.y) + 2 * kRadiusY;
  const bool fits = tile_w * tile_h <= kTileCapacity;  // the same for every thread of the block
  const int x0 = int(blockIdx.x * blockDim.x) - kRadiusX;  // the tile's top left corner in the image
  const int y0 = int(blockIdx.y * blockDim.y) - kRadiusY;
  const int x = ks::global_x();
  const int y = ks::global_y();
  const int threads = int(blockDim.x * blockDim.y);
  const int me = int(threadIdx.y * blockDim.x + threadIdx.x);
  for (int c = 0; c < in.channels; ++c) {
    // Threads outside the image load too: the tile needs every thread, and __syncthreads() waits for all.
    if (fits) {
      __syncthreads();  // the last channel's taps are read before the tile is overwritten
      for (int i = me; i < tile_w * tile_h; i += threads)
        tile[i] = Sum(in.at(x0 + i % tile_w, y0 + i / tile_w, c));
      __syncthreads();
    }
    if (!out.contains(x, y)) continue;
    // The tap (dx, dy) of this thread's pixel: in the tile, or from global memory when the tile did not fit.
    const int tx = int(threadIdx.x) + kRadiusX, ty = int(threadIdx.y) + kRadiusY;
{{WINDOW_SUM}}
    out.set(x, y, c, {{FINISH_CALL}});
  }
}
