// {{TITLE}}: the built-in lab kernel `{{KERNEL}}`, variant `gridstride`, copied as your own kernel.
// The built-in runs vec_gridstride (gpu/lab/vecadd/vecadd_cuda.cu); this copy is that kernel written for the
// `array` family, so it gives the built-in's result bit for bit: {{WHAT}}.
// A grid-stride loop: each thread handles the elements a whole grid apart, so any grid covers any n. The
// built-in sizes its grid to the device (SMs x resident blocks per SM) and each thread loops many times; the
// array family launches one thread per element, so here each loop runs once, until you change the launch.
// {{OP_NOTE}}
// Simplified from the built-in: its template over the operation (vecadd and saxpy share it) is this one, and
// its 64-bit element count is the family's int n{{IN_PLACE}}.
// This file is yours: change it, and run it with `kernelscope-cli lab --kernel-file {{FILE}}`.
// @family array
{{DECLARATIONS}}
__global__ void {{ENTRY}}(const float* {{X}}, const float* {{Y}}, float* out, int n{{EXTRA_PARAMETERS}}) {
  const int stride = int(gridDim.x * blockDim.x);
  for (int i = ks::global_index(); i < n; i += stride) out[i] = {{OP_I}};
}
