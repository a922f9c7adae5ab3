#pragma once
// Images with known colour clusters for the k-means tests, and facts about a clustering computed directly
// from its definition (not through the code under test).
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/image.hpp"

namespace ks::test {

struct Rgb {
  int r, g, b;
};

// Six colours far apart (corners of the RGB cube shrunk by 40): clusters that noise of a few levels cannot
// mix.
inline std::vector<Rgb> distinct_region_colours() {
  return {{40, 40, 40}, {215, 40, 40}, {40, 215, 40}, {40, 40, 215}, {215, 215, 40}, {40, 215, 215}};
}

// Vertical bands of the given colours (band i covers columns [i * w / k, (i + 1) * w / k)), each channel plus
// uniform noise in [-noise, noise] from the seed. RGB u8.
inline Image banded_image(int width, int height, const std::vector<Rgb>& colours, int noise,
                          std::uint32_t seed) {
  Image img(width, height, 3, ElemType::U8);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-noise, noise);
  const int k = int(colours.size());
  for (int y = 0; y < height; ++y) {
    std::uint8_t* row = img.row<std::uint8_t>(y);
    for (int x = 0; x < width; ++x) {
      const Rgb& c = colours[std::size_t(x * k / width)];
      const int v[3] = {c.r, c.g, c.b};
      for (int ch = 0; ch < 3; ++ch) row[3 * x + ch] = std::uint8_t(v[ch] + d(rng));
    }
  }
  return img;
}

// A smooth gradient with noise: no clear clusters, many distinct colours (inertia and equality tests).
inline Image gradient_image(int width, int height, std::uint32_t seed) {
  Image img(width, height, 3, ElemType::U8);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-20, 20);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = img.row<std::uint8_t>(y) + 3 * x;
      const int base[3] = {255 * x / std::max(1, width - 1), 255 * y / std::max(1, height - 1),
                           (x * 7 + y * 3) % 256};
      for (int ch = 0; ch < 3; ++ch) p[ch] = std::uint8_t(std::clamp(base[ch] + d(rng), 0, 255));
    }
  return img;
}

// Sum over pixels of the squared distance to the centroid of each pixel's label, in double.
inline double direct_inertia(const Image& rgb, const std::vector<std::uint32_t>& labels,
                             const std::vector<float>& centroids) {
  double s = 0;
  const auto v = rgb.elements<std::uint8_t>();
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (int ch = 0; ch < 3; ++ch) {
      const double d = double(v[3 * i + std::size_t(ch)]) -
                       double(centroids[3 * std::size_t(labels[i]) + std::size_t(ch)]);
      s += d * d;
    }
  return s;
}

}  // namespace ks::test
