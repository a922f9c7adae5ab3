// Lloyd's iterations on the host around a backend's assignment step.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "lab/kmeans/kmeans.hpp"

namespace ks::lab {

namespace {

// Each centroid moves to the mean of its pixels (divided in double, rounded once to float: the same for every
// backend); a centroid without pixels stays where it is.
std::vector<float> updated_centroids(const ClusterSums& sums, std::span<const float> old) {
  std::vector<float> c(old.begin(), old.end());
  for (int j = 0; j < sums.k; ++j) {
    const std::uint64_t n = sums.at(j, kCount);
    if (n == 0) continue;
    for (int ch = 0; ch < kColourChannels; ++ch)
      c[std::size_t(j) * kColourChannels + ch] = float(double(sums.at(j, SumField(kSumR + ch))) / double(n));
  }
  return c;
}

double largest_shift(std::span<const float> a, std::span<const float> b) {
  double worst = 0;
  for (std::size_t j = 0; j < a.size(); j += kColourChannels) {
    double d2 = 0;
    for (int ch = 0; ch < kColourChannels; ++ch) {
      const double d = double(a[j + ch]) - double(b[j + ch]);
      d2 += d * d;
    }
    worst = std::max(worst, std::sqrt(d2));
  }
  return worst;
}

// Half up; means of 0..255 values stay in 0..255, the clamp only guards a user's start outside it.
std::uint8_t round_colour(float v) {
  return std::uint8_t(std::clamp(std::floor(double(v) + 0.5), 0.0, 255.0));
}

}  // namespace

std::vector<std::uint8_t> palette_of(std::span<const float> centroids) {
  std::vector<std::uint8_t> p;
  for (float v : centroids) p.push_back(round_colour(v));
  return p;
}

ClusterSums& ClusterSums::operator+=(const ClusterSums& o) {
  for (std::size_t i = 0; i < values.size(); ++i) values[i] += o.values[i];
  return *this;
}

void check_kmeans_params(const KmeansParams& p, std::size_t pixel_count) {
  if (p.k < 1 || p.k > kMaxClusters)
    throw_usage(fmt::format("k = {} is out of range", p.k), fmt::format("use 1 to {} colours", kMaxClusters));
  if (std::size_t(p.k) > pixel_count)
    throw_usage(fmt::format("k = {} is larger than the image's {} pixels", p.k, pixel_count),
                "use at most one colour per pixel, or a larger image");
  if (p.max_iterations < 1 || p.max_iterations > kMaxKmeansIterations)
    throw_usage(fmt::format("iterations = {} is out of range", p.max_iterations),
                fmt::format("use 1 to {}", kMaxKmeansIterations));
  if (!std::isfinite(p.tolerance) || p.tolerance < 0)
    throw_usage(fmt::format("tolerance = {} is not a finite value >= 0", p.tolerance),
                "give the largest centroid move (0..255 colour units) that counts as converged, e.g. 0.01");
}

double inertia_of(const ClusterSums& sums, std::span<const float> centroids) {
  double total = 0;
  for (int j = 0; j < sums.k; ++j) {
    const double n = double(sums.at(j, kCount));
    double cross = 0, norm2 = 0;
    for (int ch = 0; ch < kColourChannels; ++ch) {
      const double c = centroids[std::size_t(j) * kColourChannels + ch];
      cross += c * double(sums.at(j, SumField(kSumR + ch)));
      norm2 += c * c;
    }
    total += double(sums.at(j, kSumSquares)) - 2 * cross + n * norm2;
  }
  return total;
}

KmeansResult run_lloyd(KmeansBackend& backend, std::span<const float> start, const KmeansParams& params,
                       const KmeansProgress& progress) {
  check_kmeans_params(params, backend.pixel_count());
  if (start.size() != std::size_t(params.k) * kColourChannels)
    throw Error(ErrorKind::Internal, "run_lloyd: the start holds another number of centroids");
  for (std::size_t i = 0; i < start.size(); ++i)
    if (!std::isfinite(start[i]))
      throw_usage(
          fmt::format("start centroid {} has a non-finite channel ({})", i / kColourChannels, start[i]),
          "give finite r, g, b values (0..255) in the start array, or leave it to k-means++");
  KmeansResult r;
  r.k = params.k;
  std::vector<float> centroids(start.begin(), start.end());
  auto pass = [&](bool write_labels) {
    ClusterSums sums = backend.assign(centroids, write_labels);
    r.assign_ms.push_back(backend.last_assign_ms());
    r.inertia.push_back(inertia_of(sums, centroids));
    return sums;
  };
  ClusterSums sums = pass(false);
  for (;;) {
    std::vector<float> next = updated_centroids(sums, centroids);
    r.shifts.push_back(largest_shift(centroids, next));
    centroids = std::move(next);
    ++r.iterations;
    r.converged = r.shifts.back() <= params.tolerance;
    const bool done = r.converged || r.iterations == params.max_iterations;
    // The last pass labels the pixels under the final centroids (the quantised image) and measures them.
    sums = pass(done);
    if (progress) progress(r.iterations, r.inertia.back());
    if (done) break;
  }

  r.centroids = centroids;
  r.palette = palette_of(centroids);
  for (int j = 0; j < params.k; ++j) {
    r.cluster_sizes.push_back(sums.at(j, kCount));
    if (sums.at(j, kCount) == 0) ++r.empty_clusters;
  }
  return r;
}

}  // namespace ks::lab
