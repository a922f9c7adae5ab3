// CudaContext::host_bandwidth: what PCIe (or NVLink-C2C) gives between host and device memory, the figure that
// transfers in the lab are read against. Pinned memory is DMA'd directly; pageable memory goes through the
// driver's staging buffer, which is why it is slower and why it cannot overlap kernels.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

#include "core/cuda/device_buffer.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/cuda/pinned_host.cuh"
#include "core/cuda_context.hpp"

namespace ks {

namespace {

double gbps(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t s) {
  return double(bytes) / (cuda::median_copy_ms(dst, src, bytes, kind, s, 1, 5) * 1e6);
}

}  // namespace

const HostLinkBandwidth& CudaContext::host_bandwidth() {
  if (host_bandwidth_) return *host_bandwidth_;
  std::size_t free_bytes = 0, total = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  const std::size_t bytes = std::min<std::size_t>(std::size_t(256) << 20, free_bytes / 4) & ~std::size_t(4095);
  if (bytes == 0)
    throw Error(ErrorKind::OutOfMemory, "no device memory is free to measure the host bandwidth",
                "close other programs that use the GPU");
  cuda::DeviceBuffer device(bytes, "the host bandwidth test");
  cuda::PinnedHostBuffer pinned(bytes, "cudaMallocHost");
  std::unique_ptr<std::byte[]> pageable(new std::byte[bytes]);
  std::memset(pageable.get(), 1, bytes);  // touched, so the first copy does not pay for page faults
  std::memset(pinned.get(), 1, bytes);
  auto s = static_cast<cudaStream_t>(stream_);
  HostLinkBandwidth b;
  b.pageable_to_device = gbps(device.get(), pageable.get(), bytes, cudaMemcpyHostToDevice, s);
  b.pageable_from_device = gbps(pageable.get(), device.get(), bytes, cudaMemcpyDeviceToHost, s);
  b.pinned_to_device = gbps(device.get(), pinned.get(), bytes, cudaMemcpyHostToDevice, s);
  b.pinned_from_device = gbps(pinned.get(), device.get(), bytes, cudaMemcpyDeviceToHost, s);
  host_bandwidth_ = std::make_unique<HostLinkBandwidth>(b);
  return *host_bandwidth_;
}

}  // namespace ks
