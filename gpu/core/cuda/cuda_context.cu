#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "core/cuda/cuda_resources.cuh"
#include "core/cuda_context.hpp"
#include "core/timing.hpp"

namespace ks {

std::unique_ptr<CudaContext> CudaContext::create(int device_index) {
  const std::string reason = no_device_reason();
  if (!reason.empty())
    throw Error(ErrorKind::Device, "CUDA is not available: " + reason, "use --backend cpu");
  auto devices = list_devices();
  if (device_index < 0 || device_index >= int(devices.size()))
    throw Error(ErrorKind::Usage, "there is no CUDA device " + std::to_string(device_index),
                "this machine has " + std::to_string(devices.size()) + " (see `kernelscope-cli info`)");
  cuda::check(cudaSetDevice(device_index), "cudaSetDevice");
  std::unique_ptr<CudaContext> ctx(new CudaContext());
  ctx->info_ = devices[std::size_t(device_index)];
  cudaStream_t stream = nullptr;
  cuda::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  ctx->stream_ = stream;
  return ctx;
}

CudaContext::~CudaContext() {
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

double CudaContext::copy_bandwidth_gbps() {
  if (copy_bandwidth_gbps_ > 0) return copy_bandwidth_gbps_;
  // 1 GiB, far past the L2, or a quarter of what is free on a small card.
  std::size_t free_bytes = 0, total = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  const std::size_t bytes = std::min<std::size_t>(std::size_t(1) << 30, free_bytes / 4) & ~std::size_t(255);
  cuda::DeviceBuffer a(bytes), b(bytes);
  auto s = static_cast<cudaStream_t>(stream_);
  cuda::check(cudaMemsetAsync(a.get(), 1, bytes, s), "cudaMemsetAsync");
  cuda::Event start, stop;
  std::vector<double> samples;
  for (int i = 0; i < 13; ++i) {
    start.record(s);
    cuda::check(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync");
    stop.record(s);
    const double ms = stop.since(start);
    if (i >= 3) samples.push_back(ms);  // the first copies warm up clocks and the TLB
  }
  const double median_ms = TimingStats::of(samples).median_ms;
  copy_bandwidth_gbps_ = 2.0 * double(bytes) / (median_ms * 1e6);
  return copy_bandwidth_gbps_;
}

}  // namespace ks
