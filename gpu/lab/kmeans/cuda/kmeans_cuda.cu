// The CUDA k-means backends: the pixels stay on the device for the whole run; each assignment pass uploads k
// centroids, runs the variant's kernels between CUDA events and downloads k * 5 sums (and, on the last pass,
// one label byte per pixel).
#include <algorithm>
#include <cstdio>

#include "core/cuda/device_buffer.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/cuda/launch_check.cuh"
#include "lab/cuda/device_memory_check.cuh"
#include "lab/kmeans/cuda/kmeans_cuda.hpp"
#include "lab/kmeans/cuda/kmeans_kernels.cuh"

namespace ks::lab::cuda {

namespace {

using ks::cuda::check;
using ks::cuda::DeviceBuffer;

// Stretches of pixels per block for `blocked`: enough blocks for about two per SM at the occupancy of a full
// SM, each a whole number of rounds and at most kMaxPixelsPerBlock pixels (its 32-bit sums cannot overflow).
std::size_t pixels_per_block(std::size_t n, int block, const DeviceInfo& d) {
  const std::size_t target_blocks =
      std::size_t(d.sm_count) * std::size_t(std::max(1, d.max_threads_per_sm / block)) * 2;
  const std::size_t max_rounds = kMaxPixelsPerBlock / std::size_t(block);
  const std::size_t rounds = std::clamp<std::size_t>(
      (n + std::size_t(block) * target_blocks - 1) / (std::size_t(block) * target_blocks), 1, max_rounds);
  return rounds * std::size_t(block);
}

void validate_block(const DeviceInfo& d, KmeansVariant v, int block) {
  const bool blocked = v == KmeansVariant::Blocked;
  ks::cuda::validate_launch(
      d, {blocked ? assign_blocked_kernel() : assign_naive_kernel(),
          blocked ? "kmeans assign_blocked" : "kmeans assign_naive", dim3(unsigned(std::max(block, 0))), 0});
  if (blocked && block % 32 != 0)
    throw_usage("block " + std::to_string(block) + " is not a whole number of warps",
                "kmeans blocked combines the lanes of whole warps: use a multiple of 32, e.g. 256");
}

class CudaKmeans final : public KmeansBackend {
 public:
  CudaKmeans(CudaContext& ctx, std::span<const std::uint32_t> pixels, KmeansVariant v, int block)
      : n_(pixels.size()),
        variant_(v),
        block_(block),
        stream_(static_cast<cudaStream_t>(ctx.stream())),
        timer_(stream_) {
    validate_block(ctx.device(), v, block);
    if (v == KmeansVariant::Blocked) {
      per_block_ = pixels_per_block(n_, block, ctx.device());
      blocks_ = int((n_ + per_block_ - 1) / per_block_);
    }
    const std::size_t partial_bytes = std::size_t(blocks_) * kMaxClusters * kSumFields * sizeof(unsigned);
    const std::size_t need = n_ * (sizeof(std::uint32_t) + 1) + partial_bytes + 8192;
    char what[96];
    std::snprintf(what, sizeof what, "k-means of %zu pixels on the GPU", n_);
    check_free_device_memory(need, what, "use a smaller image, or --variant cpu");
    pixels_ = DeviceBuffer(n_ * sizeof(std::uint32_t), "the pixels");
    labels_ = DeviceBuffer(n_, "the labels");
    centroids_ = DeviceBuffer(kMaxClusters * kColourChannels * sizeof(float), "the centroids");
    sums_ = DeviceBuffer(kMaxClusters * kSumFields * sizeof(unsigned long long), "the cluster sums");
    partials_ = DeviceBuffer(partial_bytes, "the per-block sums");
    timer_.start();
    check(cudaMemcpyAsync(pixels_.get(), pixels.data(), n_ * sizeof(std::uint32_t), cudaMemcpyHostToDevice,
                          stream_),
          "upload of the pixels");
    timer_.stop();
    upload_ms_ = timer_.elapsed_ms();
  }

  std::size_t pixel_count() const override { return n_; }
  double last_assign_ms() const override { return last_ms_; }
  double upload_ms() const override { return upload_ms_; }

  ClusterSums assign(std::span<const float> centroids, std::span<std::uint8_t> labels) override {
    const int k = int(centroids.size() / kColourChannels);
    if (k < 1 || k > kMaxClusters || (!labels.empty() && labels.size() != n_))
      throw Error(ErrorKind::Internal, "CudaKmeans::assign: bad centroids or labels");
    check(cudaMemcpyAsync(centroids_.get(), centroids.data(), centroids.size_bytes(), cudaMemcpyHostToDevice,
                          stream_),
          "upload of the centroids");
    const AssignArgs args{pixels_.as<std::uint32_t>(), n_, centroids_.as<float>(), k,
                          labels.empty() ? nullptr : labels_.as<std::uint8_t>()};
    auto* sums = sums_.as<unsigned long long>();
    timer_.start();
    if (variant_ == KmeansVariant::Naive)
      launch_assign_naive(args, sums, block_, stream_);
    else
      launch_assign_blocked(args, partials_.as<unsigned>(), blocks_, per_block_, sums, block_, stream_);
    timer_.stop();
    ClusterSums out(k);
    check(cudaMemcpyAsync(out.values.data(), sums, out.values.size() * sizeof(std::uint64_t),
                          cudaMemcpyDeviceToHost, stream_),
          "download of the cluster sums");
    if (!labels.empty())
      check(cudaMemcpyAsync(labels.data(), labels_.get(), n_, cudaMemcpyDeviceToHost, stream_),
            "download of the labels");
    check(cudaStreamSynchronize(stream_), "waiting for the k-means kernels");
    last_ms_ = timer_.elapsed_ms();
    return out;
  }

 private:
  std::size_t n_;
  KmeansVariant variant_;
  int block_;
  cudaStream_t stream_;
  ks::cuda::EventTimer timer_;
  std::size_t per_block_ = 0;
  int blocks_ = 0;
  DeviceBuffer pixels_, labels_, centroids_, sums_, partials_;
  double upload_ms_ = 0, last_ms_ = 0;
};

}  // namespace

std::unique_ptr<KmeansBackend> make_cuda_kmeans(CudaContext& ctx, std::span<const std::uint32_t> pixels,
                                                KmeansVariant variant, int block_threads) {
  return std::make_unique<CudaKmeans>(ctx, pixels, variant, block_threads);
}

}  // namespace ks::lab::cuda
