#pragma once
// What a lab run takes of host and device memory, worked out before anything is allocated so that a size too
// large for this machine is refused with the figures (needed, free) instead of failing half way.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lab/host_mode.hpp"
#include "lab/lab_kernel.hpp"

namespace ks::lab {

struct MemoryNeed {
  std::uint64_t host_bytes = 0;
  std::uint64_t device_bytes = 0;
  std::string host_detail;    // "inputs 8.59 GB, outputs 4.29 GB, reference outputs 4.29 GB"
  std::string device_detail;  // "arrays a, b, c 12.9 GB, workspace 1.05 MB"
};

// `reference`: the CPU reference runs (its outputs are extra host arrays). `run`: the CUDA variant (workspace),
// null on the CPU backend.
MemoryNeed memory_need(const std::vector<ArraySpec>& arrays, Backend backend, HostMode host, bool reference,
                       int streams, int chunks, const LabSize& size, const LabCudaRun* run);

// A usage Error when `needed` bytes exceed `available` (nullopt: unknown, never refused): "<what> needs 12.9 GB of
// <kind> memory (<detail>), 8.05 GB is free<where>", with `hint`.
void require_memory(const std::string& what, std::uint64_t needed, std::optional<std::uint64_t> available,
                    const std::string& kind, const std::string& detail, const std::string& where,
                    const std::string& hint);

// "4.29 GB" (decimal, like the GB/s figures).
std::string memory_text(std::uint64_t bytes);

// Host bytes without zeroing them (gigabytes that fill() writes anyway); OutOfMemory naming the array.
using HostBytes = std::unique_ptr<std::byte[]>;
HostBytes allocate_host(std::size_t bytes, const std::string& what);

// The chunks of --streams: chunk c of `chunks` covers elements [chunk_begin(n, chunks, c), chunk_begin(.., c+1)).
std::int64_t chunk_begin(std::int64_t n, int chunks, int c) noexcept;

}  // namespace ks::lab
