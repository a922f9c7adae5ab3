// The built-in box filter's naive variant (radius 1, f32) written as your own kernel: one thread per pixel,
// every tap read through the border mode and multiplied by its weight, each window row summed on its own and
// then added, as gpu/stencil/cuda/naive_window.cu does. Run it beside `box` (radius 1, variant naive) to see that
// the harness adds nothing to the time, and compare it with the built-in: --compare box:naive -P radius=1.
// @family stencil

__global__ void box3x3_naive(ks::InImage<float> in, ks::OutImage<float> out) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (!out.contains(x, y)) return;
  const float weight = 1.f / 9.f;
  for (int c = 0; c < in.channels; ++c) {
    float sum = 0.f;
    for (int dy = -1; dy <= 1; ++dy) {
      float row = 0.f;
      for (int dx = -1; dx <= 1; ++dx) row += weight * in.at(x + dx, y + dy, c);
      sum += row;
    }
    out.set(x, y, c, sum);
  }
}
