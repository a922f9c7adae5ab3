// One timed launch is a whole k-means run on the device arrays: read the start, Lloyd's iterations (each pass
// synchronises: the host needs the sums to move the centroids), then the outputs written from the host. The
// framework's events around it therefore measure the run end to end, host steps included; describe() adds the
// assignment passes' own kernel time.
#include <algorithm>
#include <cstdio>

#include "core/timing.hpp"
#include "lab/cuda/lab_launch.cuh"
#include "lab/kmeans/cuda/kmeans_lab_run.hpp"
#include "lab/kmeans/kmeans_lab.hpp"

namespace ks::lab {

namespace {

using ks::cuda::check;

// cudaMemcpyDefault: the run's arrays may be device memory, mapped or managed host memory.
void copy(void* dst, const void* src, std::size_t bytes, cudaStream_t s) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s), "cudaMemcpyAsync (k-means arrays)");
}

class KmeansRun final : public LabCudaRun {
 public:
  KmeansRun(const CudaSetup& setup, cuda::KmeansVariant variant)
      : variant_(variant),
        block_(setup.block.x),
        device_(*setup.device),
        params_(kmeans_params_of(*setup.params)),
        occupancy_(cuda::kmeans_occupancy(variant, setup.block.x, *setup.device)) {}

  std::size_t workspace_bytes(const LabSize& piece) const override {
    return cuda::kmeans_workspace_bytes(variant_, pixels(piece), params_.k, block_, device_);
  }

  std::optional<LaunchGeometry> geometry(const LabSize& piece) const override {
    LaunchGeometry g;
    g.grid_x = cuda::kmeans_grid(variant_, pixels(piece), block_, device_).blocks;
    g.block = {block_, 1};
    g.work_items = std::int64_t(pixels(piece));
    g.occupancy = occupancy_;
    return g;
  }

  void launch(const LabLaunch& l) override {
    const cudaStream_t s = cuda::stream_of(l);
    const std::size_t n = pixels(l.size);
    std::vector<float> start(std::size_t(params_.k) * kColourChannels);
    copy(start.data(), l.arrays[kStartArray].data, start.size() * sizeof(float), s);
    check(cudaStreamSynchronize(s), "reading the k-means start");
    const cuda::DeviceKmeansArrays arrays{static_cast<const std::uint32_t*>(l.arrays[kPixelsArray].data),
                                          static_cast<std::uint32_t*>(l.arrays[kLabelsArray].data), n};
    auto backend =
        cuda::make_cuda_kmeans(arrays, l.workspace, l.workspace_bytes, variant_, block_, device_, l.stream);
    last_ = run_lloyd(*backend, start, params_);
    const auto inertia = padded_series(last_.inertia, std::size_t(params_.max_iterations) + 1);
    const auto shift = padded_series(last_.shifts, std::size_t(params_.max_iterations));
    copy(l.arrays[kCentroidsArray].data, last_.centroids.data(), last_.centroids.size() * sizeof(float), s);
    copy(l.arrays[kInertiaArray].data, inertia.data(), inertia.size() * sizeof(double), s);
    copy(l.arrays[kShiftArray].data, shift.data(), shift.size() * sizeof(double), s);
    check(cudaStreamSynchronize(s), "writing the k-means results");  // the host vectors go out of scope
  }

  void describe(LabFacts& facts) const override {
    if (last_.assign_ms.empty()) return;
    const TimingStats pass = TimingStats::of(last_.assign_ms);
    char text[96];  // snprintf: fmt does not compile under nvcc
    std::snprintf(text, sizeof text, "%.4g ms median of %zu passes (kernels only)", pass.median_ms,
                  last_.assign_ms.size());
    facts.add("assignment pass", text, pass.median_ms);
  }

 private:
  static std::size_t pixels(const LabSize& size) {
    return std::size_t(size.dims[0]) * std::size_t(size.dims[1]);
  }

  cuda::KmeansVariant variant_;
  int block_;
  DeviceInfo device_;
  KmeansParams params_;
  OccupancyReport occupancy_;
  KmeansResult last_;
};

}  // namespace

std::unique_ptr<LabCudaRun> make_kmeans_cuda_run(const CudaSetup& setup, cuda::KmeansVariant variant) {
  return std::make_unique<KmeansRun>(setup, variant);
}

}  // namespace ks::lab
