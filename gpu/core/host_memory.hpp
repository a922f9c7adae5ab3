#pragma once
// How much host memory a large request may still take, for the checks before allocating gigabytes.
//
// Two kinds of files say it: /proc/meminfo (MemAvailable, against MemTotal) and the memory cgroup of the process
// and each cgroup above it (v2: memory.max, memory.current and memory.stat; v1: memory.limit_in_bytes,
// memory.usage_in_bytes and memory.stat), whose limit less what the cgroup holds, its reclaimable page cache
// (inactive_file) not counted, is what it may still take. The smallest plausible reading counts. A reading that is
// not plausible is left out, never refused on: a limit of "max" or one at or above the machine's memory (cgroup
// v1 writes 9223372036854771712 for none), 0 bytes free (this process runs; the kernel reclaims caches before it
// refuses memory; sandboxes such as gVisor write MemAvailable 0 when their own accounting overflows), more free
// than the machine has, a file that is missing or not a number. With no plausible reading the answer is unknown.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks {

// One cgroup's memory files as read (nullopt: not there).
struct CgroupMemoryFiles {
  std::optional<std::string> limit;  // v2 memory.max ("max" or bytes), v1 memory.limit_in_bytes
  std::optional<std::string> usage;  // v2 memory.current, v1 memory.usage_in_bytes
  std::optional<std::string> stat;   // memory.stat: its inactive_file (v1 also total_inactive_file)
};

struct HostMemoryFiles {
  std::optional<std::string> meminfo;      // /proc/meminfo
  std::vector<CgroupMemoryFiles> cgroups;  // the process's memory cgroup first, then those above it
};

// What the files say is free, in bytes: the smallest plausible reading; nullopt when none is plausible (then
// callers do not refuse).
std::optional<std::uint64_t> available_host_memory(const HostMemoryFiles& files);

// This process's files under `root` ("" for the machine's own /proc and /sys/fs/cgroup; tests give a folder that
// holds a made-up proc/self/cgroup, proc/meminfo and sys/fs/cgroup/...). The cgroups come from /proc/self/cgroup:
// the v2 line "0::PATH" (files under /sys/fs/cgroup) and the v1 line of the memory controller (files under
// /sys/fs/cgroup/memory); a cgroup folder that is not there (another cgroup namespace) leaves only the mount's
// own files.
HostMemoryFiles read_host_memory_files(const std::string& root = "");

// available_host_memory(read_host_memory_files()).
std::optional<std::uint64_t> available_host_memory();

}  // namespace ks
