#pragma once
// How large a grid each way of storing a simulation's state may be, and what a simulation takes of host and
// device memory: worked out before anything is allocated, so that a grid too large for the variant or for
// this machine is refused with the figures (needed, free) and what to do, never half way through.
#include <cstdint>
#include <optional>
#include <string>

#include "core/backend.hpp"
#include "sim/sim_params.hpp"

namespace ks::sim {

// The grid sizes: at most kMaxGridSide cells a side everywhere; a byte or a float per cell (life cpu, naive,
// tiled; heat; Gray-Scott) at most kMaxByteGridCells cells in all, so that cell indices stay inside 32-bit
// arithmetic; Life's packed words (cpu_bitpacked, bitpacked, multistep) up to kMaxGridSide squared
// (65536 x 65536 = 4.3e9 cells, 537 MB a copy), which their kernels index by row and word.
inline constexpr int kMaxGridSide = 65536;
inline constexpr long long kMaxByteGridCells = 1LL << 30;

// Whether a Life variant keeps 64 cells per 64-bit word (and so may hold the largest grids).
bool stores_life_words(const std::string& variant);

// Usage Error when `variant` of the simulation `kind` cannot hold a width x height grid; for Life's byte
// variants it names the packed variants that can.
void check_grid_size(SimKind kind, const std::string& variant, int width, int height);

struct SimMemoryNeed {
  std::uint64_t host_bytes = 0, device_bytes = 0;  // device: 0 on the CPU backend
  std::string host_detail, device_detail;          // "initial state 537 MB, 2 state buffers 1.07 GB"
};

SimMemoryNeed simulation_memory(SimKind kind, const std::string& variant, Backend backend, int width,
                                int height);

// "537 MB of host memory (initial state 537 MB); 1.14 GB of GPU memory (2 state buffers 1.07 GB, reserve 67
// MB)".
std::string memory_text(const SimMemoryNeed& need);
// "4.29 GB" (decimal, as the GB/s figures).
std::string bytes_text(std::uint64_t bytes);

// A usage Error when `needed` bytes exceed `available` (nullopt: unknown, never refused): "<what> needs 1.14
// GB of <kind> memory (<detail>), but 512 MB is free<where>", with `hint`.
void require_memory(const std::string& what, std::uint64_t needed, std::optional<std::uint64_t> available,
                    const std::string& kind, const std::string& detail, const std::string& where,
                    const std::string& hint);

}  // namespace ks::sim
