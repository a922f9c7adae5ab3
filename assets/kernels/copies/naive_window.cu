// {{TITLE}}: the built-in kernel `{{KERNEL}}`, variant `{{VARIANT}}`, copied as your own kernel.
// The built-in runs naive_window_kernel (gpu/stencil/cuda/naive_window.cu); this copy has its parameters and
// the {{TYPE}} type filled in, so it gives the built-in's result on {{TYPE}}
// images{{TOLERANCE}}.
// {{PARAMS}}
// One thread per output pixel, every tap read from global memory: the teaching baseline. in.at() applies the
// border mode chosen in the sidebar, as the built-in's border read does.
// Simplified from the built-in: its template over pixel types, channel counts and the three kinds of window
// filter (linear, gradient magnitude, unsharp mask) is this one case; the weights it uploads to a device
// buffer are the constants below{{SIMPLIFIED}}.
// This file is yours: change it, Run it, and the Your kernel section checks it against the built-in.
// @family stencil
{{DECLARATIONS}}
{{WEIGHTS}}
{{HELPERS}}
__global__ void {{ENTRY}}(ks::InImage<{{PIXEL}}> in, ks::OutImage<{{PIXEL}}> out{{EXTRA_PARAMETERS}}) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (!out.contains(x, y)) return;
  for (int c = 0; c < in.channels; ++c) {
    // Each window row is summed on its own, then added, as the built-in does: in float the rounding error
    // then grows with the row length plus the row count, not with their product.
{{WINDOW_SUM}}
    out.set(x, y, c, {{FINISH_CALL}});
  }
}
