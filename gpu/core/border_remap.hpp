#pragma once
// Border modes, with OpenCV's meaning, as one index remap: the built-in stencils' CPU and CUDA code
// (stencil/border.hpp adds the modes' names) and, through NVRTC, the prelude of users' stencil kernels
// (usercode/prelude/ks_prelude.cuh) all read exactly the same pixels through it. Device-compilable without host
// headers, as NVRTC needs. `remap` works for any distance outside the image (a 1x1 image with radius 24 too).
//   replicate   aaaa|abcd|dddd
//   reflect     dcba|abcd|dcba
//   reflect101  dcb|abcd|cba      (the default, as in OpenCV)
//   wrap        abcd|abcd|abcd
//   constant    vvvv|abcd|vvvv    (remap returns -1: read the border value instead)
#include "core/floor_mod.hpp"
#include "core/hd.hpp"

namespace ks {

enum class Border : int { Replicate, Reflect, Reflect101, Wrap, Constant };

// The index in [0, n) to read for a position p off the image (p < 0 or p >= n), or -1 for the constant border.
KS_HD int remap_outside(int p, int n, Border b) {
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

// Index in [0, n) to read for position p, or -1 for the constant border.
KS_HD int remap(int p, int n, Border b) {
  if (p >= 0 && p < n) return p;
  return remap_outside(p, n, b);
}

}  // namespace ks
