// The lab's k-means on the CPU: colour regions with noise are recovered, the inertia never grows and equals
// the sum of squared distances computed from the labels, every pixel ends at its nearest centroid, the thread
// count does not change the result, K = 1 gives the mean, K = the number of distinct colours reproduces the
// image, and bad parameters (K above the pixel count among them) are usage errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "lab/kmeans/kmeans.hpp"
#include "lab/kmeans/kmeans_cpu.hpp"
#include "lab/kmeans/kmeans_image.hpp"
#include "lab/kmeans/kmeans_seed.hpp"
#include "support/kmeans_images.hpp"
#include "support/test_support.hpp"

namespace ks::lab {
namespace {

// A run on the CPU from the k-means++ start of the seed, with the labels.
struct CpuKmeans {
  KmeansResult result;
  std::vector<std::uint32_t> labels;
};

CpuKmeans run_cpu(const Image& img, const KmeansParams& p, unsigned threads = 2, std::uint64_t seed = 1) {
  ThreadPool pool(threads);
  const std::vector<std::uint32_t> px = kmeans_pixels(img);
  CpuKmeans out;
  out.labels.resize(px.size());
  auto backend = make_cpu_kmeans(px, out.labels, pool);
  check_kmeans_params(p, px.size());
  out.result = run_lloyd(*backend, kmeanspp_centres(px, p.k, seed, pool), p);
  return out;
}

KmeansParams params(int k, int iterations = 30, double tolerance = 0.0) {
  KmeansParams p;
  p.k = k;
  p.max_iterations = iterations;
  p.tolerance = tolerance;
  return p;
}

Image quantised(const Image& img, const CpuKmeans& r) {
  return quantised_image(kmeans_pixels(img), img.width(), img.height(), r.labels, r.result.palette);
}

TEST(LabKmeansCpu, RecoversNoisyColourRegions) {
  const auto colours = test::distinct_region_colours();
  const Image img = test::banded_image(97, 41, colours, 4, 3);
  const CpuKmeans run = run_cpu(img, params(int(colours.size())));
  const KmeansResult& r = run.result;
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.empty_clusters, 0);
  // Each band's colour has exactly one centroid within 1 level per channel (the noise averages out) ...
  std::set<int> matched;
  for (const auto& c : colours) {
    int found = -1;
    for (int j = 0; j < r.k; ++j)
      if (std::abs(r.centroids[3 * j] - c.r) <= 1 && std::abs(r.centroids[3 * j + 1] - c.g) <= 1 &&
          std::abs(r.centroids[3 * j + 2] - c.b) <= 1)
        found = j;
    ASSERT_GE(found, 0) << "no centroid near (" << c.r << ", " << c.g << ", " << c.b << ")";
    matched.insert(found);
  }
  EXPECT_EQ(matched.size(), colours.size());
  // ... and every pixel of a band carries that band's label.
  for (int y = 0; y < img.height(); ++y)
    for (int x = 1; x < img.width(); ++x) {
      const bool same_band = x * 6 / img.width() == (x - 1) * 6 / img.width();
      const std::size_t i = std::size_t(y) * std::size_t(img.width()) + std::size_t(x);
      ASSERT_EQ(run.labels[i] == run.labels[i - 1], same_band) << x << "," << y;
    }
}

TEST(LabKmeansCpu, InertiaNeverGrowsAndMatchesTheLabels) {
  const Image img = test::gradient_image(123, 77, 9);
  const CpuKmeans run = run_cpu(img, params(8, 40));
  const KmeansResult& r = run.result;
  ASSERT_EQ(r.inertia.size(), std::size_t(r.iterations) + 1);
  ASSERT_EQ(r.shifts.size(), std::size_t(r.iterations));
  ASSERT_GE(r.iterations, 3);
  // Lloyd's steps cannot raise the inertia; the slack covers the double rounding of the sums' formula only.
  for (std::size_t i = 1; i < r.inertia.size(); ++i)
    EXPECT_LE(r.inertia[i], r.inertia[i - 1] * (1 + 1e-12)) << i;
  EXPECT_LT(r.inertia.back(), r.inertia.front());
  EXPECT_NEAR(r.inertia.back(), test::direct_inertia(img, run.labels, r.centroids), 1e-9 * r.inertia.back());
}

TEST(LabKmeansCpu, EveryPixelGoesToItsNearestCentroid) {
  const Image img = test::gradient_image(64, 33, 2);
  const CpuKmeans run = run_cpu(img, params(12, 5));
  const KmeansResult& r = run.result;
  const auto v = img.elements<std::uint8_t>();
  for (std::size_t i = 0; i < run.labels.size(); ++i) {
    double best = std::numeric_limits<double>::max();
    for (int j = 0; j < r.k; ++j) {
      double d2 = 0;
      for (int ch = 0; ch < 3; ++ch) {
        const double d = double(v[3 * i + ch]) - r.centroids[3 * std::size_t(j) + ch];
        d2 += d * d;
      }
      best = std::min(best, d2);
    }
    double mine = 0;
    for (int ch = 0; ch < 3; ++ch) {
      const double d = double(v[3 * i + ch]) - r.centroids[3 * std::size_t(run.labels[i]) + ch];
      mine += d * d;
    }
    ASSERT_LE(mine, best + 1e-3) << "pixel " << i;  // float distances: equal up to rounding
  }
}

TEST(LabKmeansCpu, ThreadCountDoesNotMatter) {
  const Image img = test::gradient_image(301, 157, 4);  // several chunks of pixels
  const CpuKmeans one = run_cpu(img, params(16, 10), 1);
  const CpuKmeans three = run_cpu(img, params(16, 10), 3);
  EXPECT_EQ(one.result.centroids, three.result.centroids);
  EXPECT_EQ(one.result.inertia, three.result.inertia);
  EXPECT_EQ(one.labels, three.labels);
}

TEST(LabKmeansCpu, SameSeedSameResult) {
  const Image img = test::gradient_image(50, 50, 8);
  EXPECT_EQ(run_cpu(img, params(7, 10), 2, 42).result.centroids,
            run_cpu(img, params(7, 10), 1, 42).result.centroids);
  EXPECT_NE(run_cpu(img, params(7, 10), 2, 42).result.inertia,
            run_cpu(img, params(7, 10), 2, 43).result.inertia);
}

TEST(LabKmeansCpu, OneClusterIsTheMean) {
  for (auto [w, h] : {std::pair{1, 1}, {7, 13}, {31, 1}, {1025, 3}}) {
    const Image img = test::random_image(w, h, 3, ElemType::U8, 5);
    double mean[3] = {0, 0, 0};
    const auto v = img.elements<std::uint8_t>();
    for (std::size_t i = 0; i < v.size(); ++i) mean[i % 3] += v[i];
    const KmeansResult r = run_cpu(img, params(1)).result;
    EXPECT_TRUE(r.converged);
    for (int ch = 0; ch < 3; ++ch)
      EXPECT_NEAR(r.centroids[ch], mean[ch] / double(w * h), 1e-4) << w << "x" << h;
  }
}

TEST(LabKmeansCpu, AsManyClustersAsColoursReproducesTheImage) {
  // Five colours scattered over 7x13 pixels (odd sizes), every colour used.
  const test::Rgb five[] = {{0, 0, 0}, {255, 255, 255}, {12, 200, 7}, {13, 200, 7}, {90, 1, 250}};
  Image img(7, 13, 3, ElemType::U8);
  auto v = img.elements<std::uint8_t>();
  for (std::size_t i = 0; i < img.shape().pixel_count(); ++i) {
    const test::Rgb& c = five[(i * 3 + i / 7) % 5];
    v[3 * i] = std::uint8_t(c.r), v[3 * i + 1] = std::uint8_t(c.g), v[3 * i + 2] = std::uint8_t(c.b);
  }
  const CpuKmeans r = run_cpu(img, params(5));
  EXPECT_EQ(r.result.inertia.back(), 0.0);
  EXPECT_EQ(r.result.empty_clusters, 0);
  EXPECT_TRUE(test::images_match(quantised(img, r), img));
  // More clusters than colours: the extra ones stay empty and the image is still reproduced.
  const CpuKmeans more = run_cpu(img, params(9));
  EXPECT_EQ(more.result.empty_clusters, 4);
  EXPECT_EQ(more.result.inertia.back(), 0.0);
  EXPECT_TRUE(test::images_match(quantised(img, more), img));
}

TEST(LabKmeansCpu, IterationLimitIsKept) {
  const Image img = test::gradient_image(80, 60, 1);
  const KmeansResult r = run_cpu(img, params(16, 2)).result;
  EXPECT_EQ(r.iterations, 2);
  EXPECT_EQ(r.inertia.size(), 3u);
  EXPECT_FALSE(r.converged);
}

void expect_usage(const KmeansParams& p, std::size_t pixels, const std::string& words) {
  try {
    check_kmeans_params(p, pixels);
    FAIL() << "no error for " << words;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(e.full_message().find(words), std::string::npos) << e.full_message();
  }
}

TEST(LabKmeansCpu, BadParametersAreUsageErrors) {
  expect_usage(params(32), 31, "larger than the image's 31 pixels");
  expect_usage(params(0), 100, "k = 0 is out of range");
  expect_usage(params(257), 1000, "k = 257 is out of range");
  expect_usage(params(4, 0), 100, "iterations = 0");
  expect_usage(params(4, 10, -1), 100, "tolerance");
  expect_usage(params(4, 10, std::numeric_limits<double>::quiet_NaN()), 100, "tolerance");
  EXPECT_NO_THROW(check_kmeans_params(params(31), 31));
  // run_lloyd checks before it works.
  const Image img = test::random_image(31, 1, 3, ElemType::U8, 1);
  EXPECT_THROW(run_cpu(img, params(32)), Error);
}

TEST(LabKmeansSeed, ColourCountsBothWays) {
  const Image img = test::random_image(40, 30, 3, ElemType::U8, 3);
  std::vector<std::uint32_t> px = kmeans_pixels(img);
  px.insert(px.end(), px.begin(), px.begin() + 100);  // some colours twice
  const ColourCounts table = count_colours(px, true), sorted = count_colours(px, false);
  EXPECT_EQ(table.colours, sorted.colours);
  EXPECT_EQ(table.weights, sorted.weights);
  std::uint64_t total = 0;
  for (std::uint32_t w : table.weights) total += w;
  EXPECT_EQ(total, px.size());
  EXPECT_TRUE(std::is_sorted(table.colours.begin(), table.colours.end()));
}

TEST(LabKmeansSeed, CentresAreDistinctImageColoursWhileColoursLast) {
  const Image img = test::gradient_image(33, 17, 6);
  const std::vector<std::uint32_t> px = kmeans_pixels(img);
  std::set<std::uint32_t> colours;
  for (std::uint32_t p : px) colours.insert(p & 0xffffffu);  // without the alpha byte
  ThreadPool pool(2);
  const std::vector<float> c = kmeanspp_centres(px, 20, 9, pool);
  std::set<std::uint32_t> seen;
  for (int j = 0; j < 20; ++j) {
    const auto w =
        std::uint32_t(c[3 * j]) | (std::uint32_t(c[3 * j + 1]) << 8) | (std::uint32_t(c[3 * j + 2]) << 16);
    EXPECT_TRUE(colours.count(w)) << "centre " << j << " is not a pixel colour";
    EXPECT_TRUE(seen.insert(w).second) << "centre " << j << " repeats one (D^2 = 0 has no weight)";
  }
}

TEST(LabKmeansImage, GrayAlphaAndSixteenBit) {
  // Gray + alpha: clustered as r = g = b, alpha kept: the quantised image is RGBA.
  Image ga(5, 3, 2, ElemType::U8);
  auto v = ga.elements<std::uint8_t>();
  for (std::size_t i = 0; i < 15; ++i)
    v[2 * i] = std::uint8_t(i < 8 ? 10 : 200), v[2 * i + 1] = std::uint8_t(i);
  const auto px = kmeans_pixels(ga);
  EXPECT_EQ(px[3], 10u | (10u << 8) | (10u << 16) | (3u << 24));
  const CpuKmeans r = run_cpu(ga, params(2));
  const Image q = quantised(ga, r);
  ASSERT_EQ(q.channels(), 4);
  for (std::size_t i = 0; i < 15; ++i) {
    const std::uint8_t want = i < 8 ? 10 : 200;
    const std::uint8_t* p = q.elements<std::uint8_t>().data() + 4 * i;
    EXPECT_EQ(p[0], want);
    EXPECT_EQ(p[1], want);
    EXPECT_EQ(p[2], want);
    EXPECT_EQ(p[3], i);
  }
  // 16-bit RGB: converted to 8 bits (257 * v -> v); opaque, so the quantised image is RGB.
  Image wide(3, 1, 3, ElemType::U16);
  auto w = wide.elements<std::uint16_t>();
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::uint16_t(257 * (i * 20));
  const auto wpx = kmeans_pixels(wide);
  EXPECT_EQ(wpx[1], 60u | (80u << 8) | (100u << 16) | (255u << 24));
  const CpuKmeans rw = run_cpu(wide, params(3));
  const Image qw = quantised(wide, rw);
  EXPECT_EQ(qw.channels(), 3);
  EXPECT_EQ(qw.elements<std::uint8_t>()[5], 100);
}

}  // namespace
}  // namespace ks::lab
