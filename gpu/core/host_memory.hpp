#pragma once
// How much host memory a large request may still take, for the checks before allocating gigabytes.
#include <cstdint>
#include <optional>

namespace ks {

// MemAvailable of /proc/meminfo in bytes; nullopt where it cannot be read (then callers do not refuse).
std::optional<std::uint64_t> available_host_memory();

}  // namespace ks
