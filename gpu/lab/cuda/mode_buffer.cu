#include "lab/cuda/mode_buffer.cuh"

#include <new>

#include "core/cuda/pinned_host.cuh"

namespace ks::lab::cuda {

namespace {

void check_host_allocation(cudaError_t status, std::size_t bytes, const std::string& what, const char* call) {
  ks::cuda::check_host_allocation(status, bytes, what, call, "use a smaller --size, or --host pageable");
}

}  // namespace

ModeBuffer::ModeBuffer(HostMode mode, std::size_t bytes, const std::string& what, void* borrowed_host)
    : mode_(mode), bytes_(bytes) {
  if (bytes == 0) return;
  try {
    allocate(what, borrowed_host);
  } catch (...) {
    release();  // the host half when the device half failed
    throw;
  }
}

void ModeBuffer::allocate(const std::string& what, void* borrowed_host) {
  const std::size_t bytes = bytes_;
  switch (mode_) {
    case HostMode::Pageable:
      if (borrowed_host) {
        host_ = borrowed_host;
      } else {
        host_ = ::operator new(bytes, std::align_val_t(4096), std::nothrow);
        if (!host_) check_host_allocation(cudaErrorMemoryAllocation, bytes, what, "pageable");
        owns_host_ = true;
      }
      ks::cuda::check_allocation(cudaMalloc(&device_, bytes), bytes, what.c_str());
      break;
    case HostMode::Pinned:
      check_host_allocation(cudaMallocHost(&host_, bytes), bytes, what, "cudaMallocHost");
      owns_host_ = true;
      ks::cuda::check_allocation(cudaMalloc(&device_, bytes), bytes, what.c_str());
      break;
    case HostMode::Mapped:
      check_host_allocation(cudaHostAlloc(&host_, bytes, cudaHostAllocMapped), bytes, what, "cudaHostAlloc");
      owns_host_ = true;
      ks::cuda::check(cudaHostGetDevicePointer(&device_, host_, 0), "cudaHostGetDevicePointer");
      break;
    case HostMode::Managed:
    case HostMode::ManagedPrefetch:
      ks::cuda::check_allocation(cudaMallocManaged(&host_, bytes), bytes, what.c_str());
      device_ = host_;
      owns_host_ = true;
      break;
  }
}

void ModeBuffer::release() noexcept {
  if (!bytes_) return;
  switch (mode_) {
    case HostMode::Pageable:
      if (device_) cudaFree(device_);
      if (owns_host_ && host_) ::operator delete(host_, std::align_val_t(4096));
      break;
    case HostMode::Pinned:
      if (device_) cudaFree(device_);
      if (host_) cudaFreeHost(host_);
      break;
    case HostMode::Mapped:
      if (host_) cudaFreeHost(host_);
      break;
    case HostMode::Managed:
    case HostMode::ManagedPrefetch:
      if (host_) cudaFree(host_);
      break;
  }
  host_ = device_ = nullptr;
  bytes_ = 0;
}

}  // namespace ks::lab::cuda
