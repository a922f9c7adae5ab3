// {{TITLE}}: the built-in kernel `{{KERNEL}}`, variant `{{VARIANT}}`, copied as your own kernel.
// The built-in runs median_network_kernel (gpu/stencil/cuda/median_network.cu); this copy has its radius and
// the {{TYPE}} type filled in, so it gives the built-in's result on {{TYPE}} images, exactly: a median only
// compares and copies.
// {{PARAMS}}
// Shared memory: a block first loads the pixels its windows need (its own, plus a halo of the radius around
// them) into a tile, once; then each thread gathers its window from the tile and sorts it until its middle is
// in place. in.at() applies the border mode chosen in the sidebar while the tile loads.
// Simplified from the built-in, a lot: the built-in finds the middle with selection networks (fixed sequences
// of min/max exchanges, generated per radius) shared between neighbouring outputs, several outputs and 4
// elements of a row per thread; here each thread sorts its own window, as the naive variant does. Making that
// faster is the exercise.
// This file is yours: change it, Run it, and the Your kernel section checks it against the built-in.
// @family stencil

constexpr int kRadius = {{RADIUS}};
constexpr int kWindow = (2 * kRadius + 1) * (2 * kRadius + 1);
// The tile: (block width + 2 r) x (block height + 2 r) pixels, sized at compile time for blocks up to 32x32;
// a block whose tile would not fit reads its windows from global memory instead, so every block gives the
// result.
constexpr int kTileCapacity = (32 + 2 * kRadius) * (32 + 2 * kRadius);

{{SELECT_MIDDLE}}
__global__ void {{ENTRY}}(ks::InImage<{{PIXEL}}> in, ks::OutImage<{{PIXEL}}> out) {
  __shared__ {{PIXEL}} tile[kTileCapacity];
  const int tile_w = int(blockDim.x) + 2 * kRadius;
  const int tile_h = int(blockDim.y) + 2 * kRadius;
  const bool fits = tile_w * tile_h <= kTileCapacity;  // the same for every thread of the block
  const int x0 = int(blockIdx.x * blockDim.x) - kRadius;  // the tile's top left corner in the image
  const int y0 = int(blockIdx.y * blockDim.y) - kRadius;
  const int x = ks::global_x();
  const int y = ks::global_y();
  const int threads = int(blockDim.x * blockDim.y);
  const int me = int(threadIdx.y * blockDim.x + threadIdx.x);
  const int tx = int(threadIdx.x) + kRadius, ty = int(threadIdx.y) + kRadius;
  {{PIXEL}} window[kWindow];
  for (int c = 0; c < in.channels; ++c) {
    // Threads outside the image load too: the tile needs every thread, and __syncthreads() waits for all.
    if (fits) {
      __syncthreads();  // the last channel's windows are read before the tile is overwritten
      for (int i = me; i < tile_w * tile_h; i += threads)
        tile[i] = in.at(x0 + i % tile_w, y0 + i / tile_w, c);
      __syncthreads();
    }
    if (!out.contains(x, y)) continue;
    int n = 0;
    for (int dy = -kRadius; dy <= kRadius; ++dy)
      for (int dx = -kRadius; dx <= kRadius; ++dx)
        window[n++] = fits ? tile[(ty + dy) * tile_w + tx + dx] : in.at(x + dx, y + dy, c);
    out.set(x, y, c, select_middle(window, n));
  }
}
