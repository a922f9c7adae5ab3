// {{TITLE}}: the built-in simulation `heat`, variant `naive`, copied as your own kernel.
// The built-in runs field_naive_kernel (gpu/sim/cuda/field_naive.cu) with heat's update (heat_update in
// gpu/sim/sim_math.hpp); this copy has its parameters filled in, so each step gives the built-in's next
// state, bit for bit.
// {{PARAMS}}
// One thread per cell: the explicit 5-point step of the heat equation,
// u + r * (west + east + north + south - 4 u) with r = diffusivity * dt (stable while r <= 1/4). Each
// addition and the multiplication are rounded on their own (the __fadd_rn and __fmul_rn intrinsics: no fused
// multiply-add), as the built-in does so that its CPU and GPU results agree exactly; a plain `u + r * lap`
// may be fused and differ in the last bit.
// Simplified from the built-in: its template over the equation (heat and Gray-Scott share the kernel) is
// heat's one field, and its boundary, a parameter there, is the one chosen, written out below.
// This file is yours: change it and run it: `kernelscope-cli sim --kernel-file {{FILE}} --steps 100`.
// @family step
// @param r float [0, 0.25] = {{R}}  diffusivity * dt: how far heat spreads per step

// The boundary: {{BOUNDARY_NOTE}}
constexpr float kOutside = {{OUTSIDE}};

// The cell to read for a neighbour at p (one step outside the grid at most) along an axis of n cells, or -1
// for the value outside the grid.
__device__ int neighbour_index(int p, int n) {
  if (p >= 0 && p < n) return p;
{{if periodic}}
  return ks::floor_mod(p, n);  // periodic: the grid wraps around
{{end}}
{{if insulated}}
  return p < 0 ? 0 : n - 1;  // insulated: the outside mirrors the edge cell, so no heat crosses the edge
{{end}}
{{if fixed}}
  return -1;  // fixed: the outside is held at kOutside
{{end}}
}

__global__ void {{ENTRY}}(const float* state, float* next, int width, int height, float r) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (x >= width || y >= height) return;
  const int xw = neighbour_index(x - 1, width), xe = neighbour_index(x + 1, width);
  const int yn = neighbour_index(y - 1, height), ys = neighbour_index(y + 1, height);
  const float* row = state + y * width;
  const float west = xw < 0 ? kOutside : row[xw];
  const float east = xe < 0 ? kOutside : row[xe];
  const float north = yn < 0 ? kOutside : state[yn * width + x];
  const float south = ys < 0 ? kOutside : state[ys * width + x];
  const float u = row[x];
  const float sum = __fadd_rn(__fadd_rn(west, east), __fadd_rn(north, south));
  const float laplacian = __fadd_rn(sum, -4.0f * u);  // 4 u is exact in float
  next[y * width + x] = __fadd_rn(u, __fmul_rn(r, laplacian));
}
