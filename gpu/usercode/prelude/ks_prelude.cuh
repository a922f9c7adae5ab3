// kernelscope's device prelude for your own kernels. The app compiles it (with NVRTC) before your file, then
// `#line 1 "YOUR_FILE.cu"`, so messages and line numbers stay those of your file. It declares the types of the
// families' contracts (docs: README "Your own kernel"): ks::InImage / ks::OutImage for `stencil`, and small
// helpers every family may use. Nothing here is required: a raw signature compiles without it.
//
// Checked mode (the app compiles with -DKS_CHECKED): at(), set() and ks::checked(...)[i] check every access, record
// the first that fails in the global ks_check_record and skip it (a read gives 0, a write is dropped). Without
// KS_CHECKED the #ifdef blocks below are gone and the accessors are the plain loads and stores.
#pragma once

// The border modes of the built-in stencils and their remap (OpenCV's meaning), so that a user's stencil reads the
// same pixels: the very header the built-ins compile, handed to NVRTC by the app (usercode/nvrtc_compile.cpp) with
// the core headers it includes (ks::floor_mod among them).
#include "core/border_remap.hpp"

namespace ks {

#ifdef KS_CHECKED
// The first access that failed a check. Its layout is the host's ks::usercode::CheckRecord
// (gpu/usercode/check/check_record.hpp), which the app reads back by the global's name after the launch;
// tests/usercode holds the two to the same offsets.
struct CheckRecord {
  unsigned int flag;  // 0 until an access fails, then 1: the first thread to set it fills the rest
  int accessor;       // 1 InImage::at, 2 OutImage::set, 3 ks::checked(...)[i]
  unsigned int block[3];
  unsigned int thread[3];
  int x, y, c;                  // at() and set(): the arguments as the kernel passed them
  int width, height, channels;  // at() and set(): the image's
  long long index;              // the element the access would have touched
  long long size;               // the buffer's elements (height * pitch, or the count given to ks::checked)
  unsigned long long base;      // the buffer's address, which the app maps to a parameter's name
};
#endif

}  // namespace ks

#ifdef KS_CHECKED
// One record per module, found by the app with cudaLibraryGetGlobal("ks_check_record"): a device global, since the
// kernel's signature is the user's and has no room for it. extern "C" keeps the name unmangled. Zero at load.
extern "C" {
__device__ ks::CheckRecord ks_check_record;
// Where an access that failed a ks::checked check goes instead (its operator[] returns a reference).
__device__ __align__(16) unsigned char ks_check_scratch[64];
}
#endif

namespace ks {

#ifdef KS_CHECKED
namespace checked_mode {

enum Accessor : int { kInAt = 1, kOutSet = 2, kCheckedPointer = 3 };

// Records the failed access unless one is recorded already. Not inlined: an accessor keeps its compare and
// branch, and the record's stores stay out of its way.
__device__ __noinline__ void record(int accessor, int x, int y, int c, int width, int height, int channels,
                                    long long index, long long size, const void* base) {
  // A plain read first: when every thread fails, they do not all queue on the atomic.
  if (*static_cast<volatile unsigned int*>(&ks_check_record.flag) != 0u) return;
  if (atomicCAS(&ks_check_record.flag, 0u, 1u) != 0u) return;
  CheckRecord& r = ks_check_record;
  r.accessor = accessor;
  r.block[0] = blockIdx.x, r.block[1] = blockIdx.y, r.block[2] = blockIdx.z;
  r.thread[0] = threadIdx.x, r.thread[1] = threadIdx.y, r.thread[2] = threadIdx.z;
  r.x = x, r.y = y, r.c = c;
  r.width = width, r.height = height, r.channels = channels;
  r.index = index;
  r.size = size;
  r.base = reinterpret_cast<unsigned long long>(base);
  __threadfence();
}

}  // namespace checked_mode
#endif

// remap_outside behind a call, not inlined, so that a stencil reading nine neighbours through at() does not inline
// nine border switches, which multiplied ptxas's time (docs/PERF.md "Your own kernel").
__device__ __noinline__ int remap_off_image(int p, int n, Border b) { return remap_outside(p, n, b); }

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
#ifdef KS_CHECKED
    // The channel first: a constant border returns before the index is computed.
    if (c < 0 || c >= channels) {
      checked_mode::record(checked_mode::kInAt, x, y, c, width, height, channels, -1,
                           static_cast<long long>(height) * pitch, data);
      return T(0);
    }
#endif
    const int rx = x >= 0 && x < width ? x : remap_off_image(x, width, border);
    const int ry = y >= 0 && y < height ? y : remap_off_image(y, height, border);
    if (rx < 0 || ry < 0) return constant_value;
#ifdef KS_CHECKED
    const long long i = static_cast<long long>(ry) * pitch + rx * channels + c;
    if (i < 0 || i >= static_cast<long long>(height) * pitch) {
      checked_mode::record(checked_mode::kInAt, x, y, c, width, height, channels, i,
                           static_cast<long long>(height) * pitch, data);
      return T(0);
    }
#endif
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
#ifdef KS_CHECKED
    const long long i = static_cast<long long>(y) * pitch + static_cast<long long>(x) * channels + c;
    const long long size = static_cast<long long>(height) * pitch;
    if (!contains(x, y) || c < 0 || c >= channels || i < 0 || i >= size) {
      checked_mode::record(checked_mode::kOutSet, x, y, c, width, height, channels, i, size, data);
      return;
    }
#endif
    data[static_cast<long long>(y) * pitch + x * channels + c] = value;
  }
};

// A raw pointer with its element count, for the raw signatures (`array`, `step`, a raw `stencil`): write
// `auto a = ks::checked(a_ptr, n);` and index `a[i]` as the pointer. In checked mode every index is checked
// against [0, n): a failed one is recorded and goes to a scratch cell instead (a read gives 0 or what another
// failed access left there, a write is lost). Without checked mode ks::checked returns the pointer itself.
#ifdef KS_CHECKED
template <typename T>
struct Checked {
  T* data;
  long long size;

  __device__ T& operator[](long long i) const {
    if (i < 0 || i >= size) {
      static_assert(sizeof(T) <= sizeof(ks_check_scratch), "ks::checked: elements of at most 64 bytes");
      checked_mode::record(checked_mode::kCheckedPointer, 0, 0, 0, 0, 0, 0, i, size, data);
      unsigned char* cell = ks_check_scratch;
      for (unsigned k = 0; k < sizeof(T); ++k) cell[k] = 0;
      return *reinterpret_cast<T*>(cell);
    }
    return data[i];
  }
};

template <typename T>
__device__ inline Checked<T> checked(T* pointer, long long count) {
  return Checked<T>{pointer, count};
}
#else
template <typename T>
__device__ inline T* checked(T* pointer, long long /*count*/) {
  return pointer;
}
#endif

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
