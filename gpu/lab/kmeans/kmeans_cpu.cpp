#include "lab/kmeans/kmeans_cpu.hpp"

#include <mutex>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"

namespace ks::lab {

namespace {

class CpuKmeans final : public KmeansBackend {
 public:
  CpuKmeans(std::span<const std::uint32_t> pixels, std::span<std::uint32_t> labels, ThreadPool& pool)
      : pixels_(pixels), labels_(labels), pool_(pool) {
    if (labels.size() != pixels.size()) throw Error(ErrorKind::Internal, "CpuKmeans: one label per pixel");
  }

  std::size_t pixel_count() const override { return pixels_.size(); }
  double last_assign_ms() const override { return last_ms_; }

  ClusterSums assign(std::span<const float> centroids, bool write_labels) override {
    const int k = int(centroids.size() / kColourChannels);
    if (k < 1 || k > kMaxClusters) throw Error(ErrorKind::Internal, "CpuKmeans::assign: bad centroids");
    Stopwatch clock;
    ClusterSums total(k);
    std::mutex merge;
    const long long chunks = (long long)((pixels_.size() + kChunk - 1) / kChunk);
    pool_.parallel_for(0, chunks, [&](long long c0, long long c1) {
      ClusterSums local(k);
      const std::size_t end = std::min(pixels_.size(), std::size_t(c1) * kChunk);
      for (std::size_t i = std::size_t(c0) * kChunk; i < end; ++i) {
        const std::uint32_t p = pixels_[i];
        const int j = nearest_centroid(p, centroids.data(), k);
        if (write_labels) labels_[i] = std::uint32_t(j);
        local.at(j, kCount) += 1;
        for (int ch = 0; ch < kColourChannels; ++ch)
          local.at(j, SumField(kSumR + ch)) += std::uint64_t(colour_channel(p, ch));
        local.at(j, kSumSquares) += squared_norm(p);
      }
      const std::lock_guard lock(merge);
      total += local;
    });
    last_ms_ = clock.elapsed_ms();
    return total;
  }

 private:
  static constexpr std::size_t kChunk = std::size_t(1) << 15;
  std::span<const std::uint32_t> pixels_;
  std::span<std::uint32_t> labels_;
  ThreadPool& pool_;
  double last_ms_ = 0;
};

}  // namespace

std::unique_ptr<KmeansBackend> make_cpu_kmeans(std::span<const std::uint32_t> pixels,
                                               std::span<std::uint32_t> labels, ThreadPool& pool) {
  return std::make_unique<CpuKmeans>(pixels, labels, pool);
}

}  // namespace ks::lab
