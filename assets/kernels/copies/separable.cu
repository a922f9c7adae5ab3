// {{TITLE}}: the built-in kernel `{{KERNEL}}`, variant `{{VARIANT}}`, copied as your own kernel.
// {{BUILTIN_KERNEL}}
// This copy has its parameters and the {{TYPE}} type filled in, so it gives the built-in's result on {{TYPE}}
// images{{TOLERANCE}}.
// {{PARAMS}}
// A separable filter's window is a column of weights times a row of weights, so the window sum is a row pass
// (each pixel's 2rx+1 neighbours in its row) followed by a column pass over the row sums: 2r+1 + 2r+1 taps
// per pixel instead of (2r+1)^2. Here one block does both: the row sums of its columns, for its rows and ry
// rows above and below, go to shared memory; then each thread sums its column of them.
// Simplified from the built-in: one kernel with both passes in shared memory, one channel per pass, the sizes
// taken from the block at run time; the built-in's strips, vector loads and warp shuffles are left out{{SIMPLIFIED}}.
// This file is yours: change it, Run it, and the Your kernel section checks it against the built-in.
// @family stencil
{{DECLARATIONS}}
{{WEIGHTS}}
{{HELPERS}}
// The row sums: block width x (block height + 2 ry) values{{TWO_BUFFERS}}. Shared memory is
// sized at compile time, so it holds {{TILE_CAPACITY}} values, enough for blocks up to {{TILE_FITS}} at this radius; a block
// whose rows would not fit sums its window from global memory instead, so every block size gives the result.
constexpr int kTileCapacity = {{TILE_CAPACITY}};

__global__ void {{ENTRY}}(ks::InImage<{{PIXEL}}> in, ks::OutImage<{{PIXEL}}> out{{EXTRA_PARAMETERS}}) {
  __shared__ Sum rows[kTileCapacity];
{{if gradient}}
  __shared__ Sum rows_b[kTileCapacity];  // the second filter's (dy) row sums
{{end}}
  const int w = int(blockDim.x), h = int(blockDim.y), tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int rows_h = h + 2 * kRadiusY;
  const bool fits = w * rows_h <= kTileCapacity;  // the same for every thread of the block
  const int x = ks::global_x();
  const int y = ks::global_y();
  const int y0 = int(blockIdx.y) * h - kRadiusY;  // the first row the block sums
  for (int c = 0; c < in.channels; ++c) {
    if (fits) {
      __syncthreads();  // the last channel's row sums are read before they are overwritten
      // The row pass: every thread of the block sums rows of its column, blockDim.y apart.
      for (int r = ty; r < rows_h; r += h) {
        Sum s = 0;
{{if gradient}}
        Sum s_b = 0;
{{end}}
        for (int dx = -kRadiusX; dx <= kRadiusX; ++dx) {
          const Sum v = Sum(in.at(x + dx, y0 + r, c));
          s += kRowWeights[dx + kRadiusX] * v;
{{if gradient}}
          s_b += kRowWeightsB[dx + kRadiusX] * v;
{{end}}
        }
        rows[r * w + tx] = s;
{{if gradient}}
        rows_b[r * w + tx] = s_b;
{{end}}
      }
      __syncthreads();
    }
    if (!out.contains(x, y)) continue;
    // The column pass over this thread's column of row sums (or, when they did not fit, the row sums made
    // here).
    Sum sum = 0;
{{if gradient}}
    Sum sum_b = 0;
{{end}}
    for (int dy = -kRadiusY; dy <= kRadiusY; ++dy) {
      const int r = ty + kRadiusY + dy;
      Sum row = 0;
{{if gradient}}
      Sum row_b = 0;
{{end}}
      if (fits) {
        row = rows[r * w + tx];
{{if gradient}}
        row_b = rows_b[r * w + tx];
{{end}}
      } else {
        for (int dx = -kRadiusX; dx <= kRadiusX; ++dx) {
          const Sum v = Sum(in.at(x + dx, y + dy, c));
          row += kRowWeights[dx + kRadiusX] * v;
{{if gradient}}
          row_b += kRowWeightsB[dx + kRadiusX] * v;
{{end}}
        }
      }
      sum += kColumnWeights[dy + kRadiusY] * row;
{{if gradient}}
      sum_b += kColumnWeightsB[dy + kRadiusY] * row_b;
{{end}}
    }
    out.set(x, y, c, {{FINISH_CALL}});
  }
}
