#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "core/cuda/counter_profiler.hpp"
#include "core/cuda/device_buffer.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/cuda/stream.cuh"
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
  cuda::Stream stream;
  std::unique_ptr<CudaContext> ctx(new CudaContext());
  ctx->info_ = devices[std::size_t(device_index)];
  ctx->stream_ = stream.release();  // from here on the context's destructor owns it
  return ctx;
}

void CudaContext::make_current() const { cuda::check(cudaSetDevice(info_.index), "cudaSetDevice"); }

CounterReading CudaContext::read_counters(const std::function<void()>& work, const std::string& kernel_name) {
  make_current();
  if (!counters_) counters_ = std::make_unique<CounterProfiler>(info_.index);
  return counters_->read(work, kernel_name, counter_set_);
}

void CudaContext::release_counters() {
  if (counters_) counters_->release();
}

CudaContext::~CudaContext() {
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}

double CudaContext::copy_bandwidth_gbps() {
  if (copy_bandwidth_gbps_ > 0) return copy_bandwidth_gbps_;
  make_current();  // this thread may have opened another device since (a worker per GPU)
  // 1 GiB, far past the L2 cache so that DRAM is what is measured; a quarter of the free memory per buffer
  // on a card that has less than 4 GiB free.
  std::size_t free_bytes = 0, total = 0;
  cuda::check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  const std::size_t bytes = std::min<std::size_t>(std::size_t(1) << 30, free_bytes / 4) & ~std::size_t(4095);
  if (bytes == 0)
    throw Error(ErrorKind::OutOfMemory, "no device memory is free to measure the copy bandwidth",
                "close other programs that use the GPU");
  cuda::DeviceBuffer a(bytes, "the bandwidth test"), b(bytes, "the bandwidth test");
  auto s = static_cast<cudaStream_t>(stream_);
  cuda::check(cudaMemsetAsync(a.get(), 1, bytes, s), "cudaMemsetAsync");
  const double median_ms = cuda::median_copy_ms(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, s, 2, 10);
  // Every byte is read once and written once: the same count as the kernels' cost models.
  copy_bandwidth_gbps_ = 2.0 * double(bytes) / (median_ms * 1e6);
  return copy_bandwidth_gbps_;
}

}  // namespace ks
