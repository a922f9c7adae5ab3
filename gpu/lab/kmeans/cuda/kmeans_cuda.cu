// The CUDA k-means backends: the pixels stay on the device for the whole run; each assignment pass uploads k
// centroids, runs the variant's kernels between CUDA events and downloads k * 5 sums.
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

constexpr std::size_t kAlign = 256;
std::size_t aligned(std::size_t bytes) {
  return (bytes + kAlign - 1) / kAlign * kAlign;
}

// Where the pieces of the workspace start.
struct WorkspaceLayout {
  std::size_t centroids = 0, sums = 0, partials = 0, total = 0;
};

WorkspaceLayout layout(const KmeansGrid& grid, int k, KmeansVariant v) {
  WorkspaceLayout l;
  l.sums = aligned(std::size_t(k) * kColourChannels * sizeof(float));
  l.partials = l.sums + aligned(std::size_t(k) * kSumFields * sizeof(unsigned long long));
  const std::size_t partial_bytes =
      v == KmeansVariant::Blocked ? std::size_t(grid.blocks) * std::size_t(k) * kSumFields * sizeof(unsigned)
                                  : 0;
  l.total = l.partials + aligned(partial_bytes);
  return l;
}

ks::cuda::KernelLaunchShape launch_shape(KmeansVariant v, int block) {
  const bool blocked = v == KmeansVariant::Blocked;
  return {blocked ? assign_blocked_kernel() : assign_naive_kernel(),
          blocked ? "kmeans assign_blocked" : "kmeans assign_naive", dim3(unsigned(std::max(block, 0))), 0};
}

class CudaKmeans final : public KmeansBackend {
 public:
  CudaKmeans(const DeviceKmeansArrays& arrays, void* workspace, std::size_t workspace_bytes, KmeansVariant v,
             int block, const DeviceInfo& device, cudaStream_t stream)
      : arrays_(arrays),
        workspace_(static_cast<std::byte*>(workspace)),
        workspace_bytes_(workspace_bytes),
        variant_(v),
        block_(block),
        grid_(kmeans_grid(v, arrays.n, block, device)),
        stream_(stream),
        timer_(stream) {}

  std::size_t pixel_count() const override { return arrays_.n; }
  double last_assign_ms() const override { return last_ms_; }

  ClusterSums assign(std::span<const float> centroids, bool write_labels) override {
    const int k = int(centroids.size() / kColourChannels);
    const WorkspaceLayout l = layout(grid_, k, variant_);
    if (k < 1 || k > kMaxClusters || l.total > workspace_bytes_)
      throw Error(ErrorKind::Internal, "CudaKmeans::assign: bad centroids, or too small a workspace");
    auto* c = reinterpret_cast<float*>(workspace_ + l.centroids);
    auto* sums = reinterpret_cast<unsigned long long*>(workspace_ + l.sums);
    check(cudaMemcpyAsync(c, centroids.data(), centroids.size_bytes(), cudaMemcpyHostToDevice, stream_),
          "upload of the centroids");
    const AssignArgs args{arrays_.pixels, arrays_.n, c, k, write_labels ? arrays_.labels : nullptr};
    timer_.start();
    if (variant_ == KmeansVariant::Naive)
      launch_assign_naive(args, sums, block_, stream_);
    else
      launch_assign_blocked(args, reinterpret_cast<unsigned*>(workspace_ + l.partials), int(grid_.blocks),
                            grid_.pixels_per_block, sums, block_, stream_);
    timer_.stop();
    ClusterSums out(k);
    check(cudaMemcpyAsync(out.values.data(), sums, out.values.size() * sizeof(std::uint64_t),
                          cudaMemcpyDeviceToHost, stream_),
          "download of the cluster sums");
    check(cudaStreamSynchronize(stream_), "waiting for the k-means kernels");
    last_ms_ = timer_.elapsed_ms();
    return out;
  }

 private:
  DeviceKmeansArrays arrays_;
  std::byte* workspace_;
  std::size_t workspace_bytes_;
  KmeansVariant variant_;
  int block_;
  KmeansGrid grid_;
  cudaStream_t stream_;
  ks::cuda::EventTimer timer_;
  double last_ms_ = 0;
};

}  // namespace

KmeansGrid kmeans_grid(KmeansVariant v, std::size_t n, int block, const DeviceInfo& d) {
  const std::size_t b = std::size_t(std::max(block, 1));
  if (v == KmeansVariant::Naive) return {std::int64_t((n + b - 1) / b), 1};
  // Stretches for about two blocks per SM at full occupancy, each a whole number of rounds of the block and
  // at most kMaxPixelsPerBlock pixels (its 32-bit sums cannot overflow).
  const std::size_t target_blocks =
      std::size_t(std::max(d.sm_count, 1)) * std::size_t(std::max(1, d.max_threads_per_sm / int(b))) * 2;
  const std::size_t rounds =
      std::clamp<std::size_t>((n + b * target_blocks - 1) / (b * target_blocks), 1, kMaxPixelsPerBlock / b);
  const std::size_t per_block = rounds * b;
  return {std::int64_t((n + per_block - 1) / per_block), per_block};
}

OccupancyReport kmeans_occupancy(KmeansVariant v, int block, const DeviceInfo& d) {
  const OccupancyReport occ = ks::cuda::occupancy_of(d, launch_shape(v, block));
  if (v == KmeansVariant::Blocked && block % 32 != 0)
    throw_usage("block " + std::to_string(block) + " is not a whole number of warps",
                "kmeans blocked combines the lanes of whole warps: use a multiple of 32, e.g. 256");
  return occ;
}

std::size_t kmeans_workspace_bytes(KmeansVariant v, std::size_t n, int k, int block, const DeviceInfo& d) {
  return layout(kmeans_grid(v, n, block, d), k, v).total;
}

std::unique_ptr<KmeansBackend> make_cuda_kmeans(const DeviceKmeansArrays& arrays, void* workspace,
                                                std::size_t workspace_bytes, KmeansVariant variant, int block,
                                                const DeviceInfo& device, void* stream) {
  return std::make_unique<CudaKmeans>(arrays, workspace, workspace_bytes, variant, block, device,
                                      static_cast<cudaStream_t>(stream));
}

GpuKmeans kmeans_on_gpu(CudaContext& ctx, std::span<const std::uint32_t> pixels, std::span<const float> start,
                        const KmeansParams& params, KmeansVariant variant, int block) {
  // The context's device, whichever device this thread last used (a process may hold a context per GPU).
  ctx.make_current();
  const DeviceInfo& d = ctx.device();
  const std::size_t n = pixels.size();
  check_kmeans_params(params, n);
  kmeans_occupancy(variant, block, d);
  const std::size_t workspace_bytes = kmeans_workspace_bytes(variant, n, params.k, block, d);
  char what[96];
  std::snprintf(what, sizeof what, "k-means of %zu pixels on the GPU", n);
  check_free_device_memory(2 * n * sizeof(std::uint32_t) + workspace_bytes, what,
                           "use a smaller image, or --variant cpu");
  DeviceBuffer px(n * sizeof(std::uint32_t), "the pixels"), labels(n * sizeof(std::uint32_t), "the labels");
  DeviceBuffer workspace(workspace_bytes, "the k-means workspace");
  const auto s = static_cast<cudaStream_t>(ctx.stream());
  check(cudaMemcpyAsync(px.get(), pixels.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice, s),
        "upload of the pixels");
  auto backend = make_cuda_kmeans({px.as<std::uint32_t>(), labels.as<std::uint32_t>(), n}, workspace.get(),
                                  workspace_bytes, variant, block, d, ctx.stream());
  GpuKmeans out;
  out.result = run_lloyd(*backend, start, params);
  out.labels.resize(n);
  check(
      cudaMemcpyAsync(out.labels.data(), labels.get(), n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s),
      "download of the labels");
  check(cudaStreamSynchronize(s), "waiting for the labels");
  return out;
}

}  // namespace ks::lab::cuda
