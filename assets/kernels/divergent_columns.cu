// Branch divergence, on purpose: even columns get a 5x5 blur, odd columns a 3x3 sharpen. The 32 lanes of a warp
// are 32 neighbouring columns of one row, so every warp holds both kinds of lane and runs the two paths one after
// the other, each with half its lanes idle: the counters' warp execution efficiency falls to about half, and the
// Why section says "branch divergence".
// The fix keeps the work and moves the branch: with rows = 1 the choice follows the row, which is the same for the
// 32 lanes of a warp of a 32-wide block, so a warp takes one path whole (run it again with -p rows=1).
// @family stencil
// @param rows float [0, 1] = 0   0 branches on the column (divergent), 1 on the row (whole warps)

__global__ void divergent_columns(ks::InImage<float> in, ks::OutImage<float> out, float rows) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (!out.contains(x, y)) return;
  const int chooser = rows > 0.5f ? y : x;
  for (int c = 0; c < in.channels; ++c) {
    float value = 0.f;
    if ((chooser & 1) == 0) {
      for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) value += in.at(x + dx, y + dy, c);
      value /= 25.f;
    } else {
      float ring = 0.f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) ring += in.at(x + dx, y + dy, c);
      const float centre = in.at(x, y, c);
      value = 2.f * centre - (ring - centre) / 8.f;
    }
    out.set(x, y, c, value);
  }
}
