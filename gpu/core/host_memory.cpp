#include "core/host_memory.hpp"

#include <fstream>
#include <string>

namespace ks {

std::optional<std::uint64_t> available_host_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

}  // namespace ks
