#pragma once
// The per-pixel arithmetic of k-means, shared verbatim by the CPU backend and the CUDA kernels.
//
// Why CPU and CUDA give the same centroids: a pixel's squared distance to a centroid is computed with
// separately rounded float operations in one order (IEEE single precision on both sides, no FMA contraction),
// so every pixel picks the same cluster (ties go to the lowest index); the per-cluster sums are integers
// added in 64 bits, exact in any order; the host then divides them identically for every backend.
#include <cstdint>

#include "core/hd.hpp"
#include "core/rounded_math.hpp"  // mul_rn, add_rn

namespace ks::lab {

inline constexpr int kMaxClusters = 256;  // labels are one byte per pixel
inline constexpr int kColourChannels = 3;

// Per cluster: how many pixels, the sums of their r, g and b, and the sum of r^2 + g^2 + b^2 (with the others
// this gives the inertia exactly, see kmeans_lloyd.cpp).
enum SumField : int { kCount = 0, kSumR, kSumG, kSumB, kSumSquares, kSumFields };

// Pixels are 32-bit words 0x00BBGGRR (r in the lowest byte); the top byte is ignored.
KS_HD int colour_channel(std::uint32_t pixel, int c) {
  return int((pixel >> (8 * c)) & 0xffu);
}

KS_HD std::uint32_t squared_norm(std::uint32_t pixel) {
  std::uint32_t s = 0;
  for (int c = 0; c < kColourChannels; ++c) {
    const std::uint32_t v = std::uint32_t(colour_channel(pixel, c));
    s += v * v;
  }
  return s;
}

// Squared distance from the pixel to centroid (r, g, b) = c[0..2].
KS_HD float distance2(std::uint32_t pixel, const float* c) {
  float d2 = 0.f;
  for (int ch = 0; ch < kColourChannels; ++ch) {
    const float d = add_rn(float(colour_channel(pixel, ch)), -c[ch]);
    d2 = add_rn(d2, mul_rn(d, d));
  }
  return d2;
}

// Index of the nearest of k centroids (k * 3 floats); the lowest index among equally near ones.
KS_HD int nearest_centroid(std::uint32_t pixel, const float* centroids, int k) {
  int best = 0;
  float best_d2 = distance2(pixel, centroids);
  for (int j = 1; j < k; ++j) {
    const float d2 = distance2(pixel, centroids + kColourChannels * j);
    if (d2 < best_d2) {
      best_d2 = d2;
      best = j;
    }
  }
  return best;
}

}  // namespace ks::lab
