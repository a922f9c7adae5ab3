#pragma once
// Where a lab run's host arrays live, and so how data reaches the GPU (the transfers lesson).
#include <string>

namespace ks::lab {

enum class HostMode {
  Pageable,         // ordinary memory; the driver stages copies through a pinned buffer of its own
  Pinned,           // page-locked (cudaMallocHost): DMA straight from it; needed for copies that overlap kernels
  Mapped,           // zero-copy (cudaHostAlloc mapped): kernels read and write host memory over PCIe; no copies
  Managed,          // cudaMallocManaged: pages migrate on demand, during the kernel (page faults)
  ManagedPrefetch,  // cudaMallocManaged + cudaMemPrefetchAsync to the device before the kernel (the "upload")
};

const char* to_string(HostMode mode) noexcept;  // "pageable", "pinned", "mapped", "managed", "managed-prefetch"
HostMode host_mode_from_string(const std::string& text);  // usage Error listing the modes otherwise
// Whether the mode copies between host and device memory (pageable, pinned, managed-prefetch's prefetches).
bool has_copies(HostMode mode) noexcept;

}  // namespace ks::lab
