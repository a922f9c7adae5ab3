// {{TITLE}}: the built-in kernel `{{KERNEL}}`, variant `{{VARIANT}}`, copied as your own kernel.
// The built-in runs naive_median_kernel (gpu/stencil/cuda/median.cu); this copy has its radius and the {{TYPE}}
// type filled in, so it gives the built-in's result on {{TYPE}} images, exactly: a median only compares and
// copies.
// {{PARAMS}}
// One thread per output pixel: the (2r+1)x(2r+1) window gathered into a local array through in.at() (which
// applies the border mode chosen in the sidebar), then sorted until its middle is in place.
// Simplified from the built-in: its template over pixel types and channel counts is this one case, and the
// radius is a constant here, so the window array has exactly the window's size.
// This file is yours: change it, Run it, and the Your kernel section checks it against the built-in.
// @family stencil

constexpr int kRadius = {{RADIUS}};
constexpr int kWindow = (2 * kRadius + 1) * (2 * kRadius + 1);

{{SELECT_MIDDLE}}
__global__ void {{ENTRY}}(ks::InImage<{{PIXEL}}> in, ks::OutImage<{{PIXEL}}> out) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (!out.contains(x, y)) return;
  {{PIXEL}} window[kWindow];
  for (int c = 0; c < in.channels; ++c) {
    int n = 0;
    for (int dy = -kRadius; dy <= kRadius; ++dy)
      for (int dx = -kRadius; dx <= kRadius; ++dx) window[n++] = in.at(x + dx, y + dy, c);
    out.set(x, y, c, select_middle(window, n));
  }
}
