// {{TITLE}}: the built-in lab kernel `{{KERNEL}}`, variant `naive`, copied as your own kernel.
// The built-in runs vec_naive (gpu/lab/vecadd/vecadd_cuda.cu); this copy is that kernel written for the
// `array` family, so it gives the built-in's result bit for bit: {{WHAT}}.
// One thread per element, grid = ceil(n / block): the last block's extra threads idle.
// {{OP_NOTE}}
// Simplified from the built-in: its template over the operation (vecadd and saxpy share it) is this one, and
// its 64-bit element count is the family's int n{{IN_PLACE}}.
// This file is yours: change it, and run it with `kernelscope-cli lab --kernel-file {{FILE}}`.
// @family array
{{DECLARATIONS}}
__global__ void {{ENTRY}}(const float* {{X}}, const float* {{Y}}, float* out, int n{{EXTRA_PARAMETERS}}) {
  const int i = ks::global_index();
  if (i < n) out[i] = {{OP_I}};
}
