// kernelscope's device prelude for your own kernels. The app compiles it (with NVRTC) before your file, then
// `#line 1 "YOUR_FILE.cu"`, so messages and line numbers stay those of your file. It declares the types of the
// families' contracts (docs: README "Your own kernel"): ks::InImage / ks::OutImage for `stencil`, and small
// helpers every family may use. Nothing here is required: a raw signature compiles without it.
#pragma once

namespace ks {

// The border modes of the built-in stencils, in the same order and with the same remap (OpenCV's meaning), so that
// a user's stencil reads the same pixels. A copy of gpu/stencil/border.hpp's: that header also declares host
// functions over std::string, which NVRTC refuses (no host code, no <string>); tests/usercode checks the two agree.
enum class Border : int { Replicate, Reflect, Reflect101, Wrap, Constant };

__device__ inline int floor_mod(int a, int n) {
  int m = a % n;
  return m < 0 ? m + n : m;
}

// The index in [0, n) to read for a position p off the image, or -1 for the constant border. A call, not inlined,
// so that a stencil reading nine neighbours through at() does not inline nine border switches, which multiplied
// ptxas's time (docs/PERF.md "Your own kernel").
__device__ __noinline__ int remap_outside(int p, int n, Border b) {
  switch (b) {
    case Border::Replicate:
      return p < 0 ? 0 : n - 1;
    case Border::Reflect: {
      int m = floor_mod(p, 2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case Border::Reflect101: {
      if (n == 1) return 0;
      int m = floor_mod(p, 2 * n - 2);
      return m < n ? m : 2 * n - 2 - m;
    }
    case Border::Wrap:
      return floor_mod(p, n);
    case Border::Constant:
    default:
      return -1;
  }
}

// The input image of a `stencil` kernel: `channels` interleaved values per pixel (1 or 4), rows `pitch`
// elements apart (pitch >= width * channels). at() applies the border mode the user picked, so a kernel may read
// outside the image freely; constant_value is what the constant border reads.
template <typename T>
struct InImage {
  const T* data;
  int width;
  int height;
  int channels;
  int pitch;  // elements from one row to the next
  Border border;
  T constant_value;

  __device__ T at(int x, int y, int c = 0) const {
    const int rx = x >= 0 && x < width ? x : remap_outside(x, width, border);
    const int ry = y >= 0 && y < height ? y : remap_outside(y, height, border);
    if (rx < 0 || ry < 0) return constant_value;
    return data[static_cast<long long>(ry) * pitch + rx * channels + c];
  }
};

// The output image of a `stencil` kernel: same size and channels as the input.
template <typename T>
struct OutImage {
  T* data;
  int width;
  int height;
  int channels;
  int pitch;  // elements from one row to the next

  __device__ bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
  __device__ void set(int x, int y, int c, T value) const {
    data[static_cast<long long>(y) * pitch + x * channels + c] = value;
  }
};

// A float rounded to the nearest u8 and clamped to 0..255, as the built-in u8 stencils store their results.
__device__ inline unsigned char to_u8(float v) {
  v = v < 0.f ? 0.f : (v > 255.f ? 255.f : v);
  return static_cast<unsigned char>(v + 0.5f);
}

// This thread's index in a 1-D launch (the `array` family) and its (x, y) in a 2-D launch (`stencil`, `step`).
__device__ inline int global_index() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }
__device__ inline int global_x() { return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); }
__device__ inline int global_y() { return static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y); }

}  // namespace ks
