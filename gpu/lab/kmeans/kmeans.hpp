#pragma once
// Colour quantisation by k-means (the lab's `kmeans` kernel): a k-means++ start from the seed, then Lloyd's
// iterations (assign every pixel to its nearest centroid, move each centroid to the mean of its pixels) until
// no centroid moves more than `tolerance` or `max_iterations` updates are done.
//
// The seeding (kmeans_seed.hpp), the centroid updates and the inertia run on the host for every backend; a
// backend only assigns pixels and sums per cluster (KmeansBackend). Same start => the same centroids on the
// CPU and on CUDA, to the bit (kmeans_math.hpp says why).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "lab/kmeans/kmeans_math.hpp"

namespace ks::lab {

struct KmeansParams {
  int k = 16;               // 1..256, and at most the number of pixels
  int max_iterations = 30;  // centroid updates, 1..10000
  double tolerance = 0.01;  // stop when no centroid moved farther (in 0..255 colour units), >= 0
};

inline constexpr int kMaxKmeansIterations = 10000;

// Usage Errors for a k out of 1..256 or above the number of pixels, iterations out of range, a negative or
// non-finite tolerance; nothing is clamped.
void check_kmeans_params(const KmeansParams& p, std::size_t pixel_count);

// Per-cluster integer sums (see SumField): k * kSumFields values.
struct ClusterSums {
  int k = 0;
  std::vector<std::uint64_t> values;

  explicit ClusterSums(int clusters = 0) : k(clusters), values(std::size_t(clusters) * kSumFields, 0) {}
  std::uint64_t& at(int cluster, SumField f) { return values[std::size_t(cluster) * kSumFields + f]; }
  std::uint64_t at(int cluster, SumField f) const { return values[std::size_t(cluster) * kSumFields + f]; }
  ClusterSums& operator+=(const ClusterSums& o);
};

// What runs the assignment step: the CPU backend (kmeans_cpu.hpp) or a CUDA variant (cuda/kmeans_cuda.hpp).
class KmeansBackend {
 public:
  virtual ~KmeansBackend() = default;
  virtual std::size_t pixel_count() const = 0;
  // Assigns every pixel to its nearest centroid (k * 3 floats: r, g, b) and returns the per-cluster sums;
  // with write_labels, also stores each pixel's cluster in the backend's label array.
  virtual ClusterSums assign(std::span<const float> centroids, bool write_labels) = 0;
  // Milliseconds of the last assign's work: the kernels (CUDA events) or the host loop, without the copies of
  // centroids, sums and labels.
  virtual double last_assign_ms() const = 0;
};

struct KmeansResult {
  int k = 0;
  std::vector<float> centroids;       // k * 3, after the last update
  std::vector<std::uint8_t> palette;  // the centroids rounded half up: the colours of the quantised image
  std::vector<std::uint64_t> cluster_sizes;
  // inertia[0]: sum of squared distances to the start; inertia[i]: after the i-th update.
  std::vector<double> inertia;
  std::vector<double> shifts;     // shifts[i - 1]: how far update i moved the centroid that moved most
  std::vector<double> assign_ms;  // one per assignment pass (iterations + 1)
  int iterations = 0;             // centroid updates done
  bool converged = false;         // the last update moved no centroid farther than the tolerance
  int empty_clusters = 0;         // clusters without pixels (more clusters than distinct colours)
};

// Called after each update with its number (1, 2, ...) and the inertia; may throw (Cancelled) to stop.
using KmeansProgress = std::function<void(int iteration, double inertia)>;

// Lloyd's iterations from `start` (k * 3 floats, k = params.k; kmeans_seed.hpp's k-means++ centres). The last
// assignment pass, under the final centroids, writes the backend's labels (the quantised image).
KmeansResult run_lloyd(KmeansBackend& backend, std::span<const float> start, const KmeansParams& params,
                       const KmeansProgress& progress = {});

// The colours of the quantised image: each centroid channel rounded half up to 0..255.
std::vector<std::uint8_t> palette_of(std::span<const float> centroids);

// The inertia (sum over pixels of the squared distance to their centroid) from the sums of an assignment to
// `centroids`: sum_k S2_k - 2 c_k . S1_k + n_k |c_k|^2, in double on the host.
double inertia_of(const ClusterSums& sums, std::span<const float> centroids);

}  // namespace ks::lab
