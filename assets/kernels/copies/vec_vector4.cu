// {{TITLE}}: the built-in lab kernel `{{KERNEL}}`, variant `vector4`, copied as your own kernel.
// The built-in runs vec_vector4 (gpu/lab/vecadd/vecadd_cuda.cu); this copy is that kernel written for the
// `array` family, so it gives the built-in's result bit for bit: {{WHAT}}.
// 16-byte loads and stores: thread t handles the float4 t (4 elements at once), with scalar elements before
// the first 16-byte boundary (the head) and after the last whole float4 (the tail). The built-in launches a
// quarter of n threads; the array family launches one per element, so three quarters of these idle.
// {{OP_NOTE}}
// Simplified from the built-in: its template over the operation (vecadd and saxpy share it) is this one, and
// its 64-bit element count is the family's int n{{IN_PLACE}}.
// Arrays at different offsets from a 16-byte boundary take the scalar path here.
// This file is yours: change it, and run it with `kernelscope-cli lab --kernel-file {{FILE}}`.
// @family array
{{DECLARATIONS}}
__device__ float op(float {{X}}, float {{Y}}{{EXTRA_PARAMETERS}}) { return {{OP}}; }

__global__ void {{ENTRY}}(const float* {{X}}, const float* {{Y}}, float* out, int n{{EXTRA_PARAMETERS}}) {
  const int t = ks::global_index();
  // Bytes past a 16-byte boundary: float4 accesses need all three arrays at the same offset from one.
  const unsigned long long misaligned = reinterpret_cast<unsigned long long>({{X}}) % 16;
  if (reinterpret_cast<unsigned long long>({{Y}}) % 16 != misaligned ||
      reinterpret_cast<unsigned long long>(out) % 16 != misaligned) {
    if (t < n) out[t] = op({{X}}[t], {{Y}}[t]{{EXTRA_ARGUMENTS}});
    return;
  }
  const int head = min(n, int((16 - misaligned) % 16 / 4));  // scalar elements before the first boundary
  const int body = (n - head) / 4;                           // whole float4s
  const int tail = n - head - 4 * body;                      // scalar elements after them (0 to 3)
  if (t < body) {
    const float4 a4 = reinterpret_cast<const float4*>({{X}} + head)[t];
    const float4 b4 = reinterpret_cast<const float4*>({{Y}} + head)[t];
    float4 c;
    c.x = op(a4.x, b4.x{{EXTRA_ARGUMENTS}});
    c.y = op(a4.y, b4.y{{EXTRA_ARGUMENTS}});
    c.z = op(a4.z, b4.z{{EXTRA_ARGUMENTS}});
    c.w = op(a4.w, b4.w{{EXTRA_ARGUMENTS}});
    reinterpret_cast<float4*>(out + head)[t] = c;
  }
  if (t < head) out[t] = op({{X}}[t], {{Y}}[t]{{EXTRA_ARGUMENTS}});
  if (t < tail) {
    const int i = head + 4 * body + t;
    out[i] = op({{X}}[i], {{Y}}[i]{{EXTRA_ARGUMENTS}});
  }
}
