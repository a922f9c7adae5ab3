#include "core/host_memory.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace ks {

namespace {

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::optional<std::uint64_t> number_of(std::string_view text) {
  text = trimmed(text);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// The text after `separator` on the line of `text` whose part before it is `key` (blanks around both dropped).
std::optional<std::string> line_value(const std::string& text, std::string_view key, char separator) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const std::string_view l(line);
    const auto at = l.find(separator);
    if (at != std::string_view::npos && trimmed(l.substr(0, at)) == key)
      return std::string(trimmed(l.substr(at + 1)));
  }
  return std::nullopt;
}

// The value of "KEY: VALUE [kB]" in /proc/meminfo, in bytes.
std::optional<std::uint64_t> meminfo_bytes(const std::string& meminfo, std::string_view key) {
  const auto text = line_value(meminfo, key, ':');
  if (!text) return std::nullopt;
  std::string_view value = *text;
  std::uint64_t unit = 1;
  if (value.size() > 2 && value.substr(value.size() - 2) == "kB") {
    unit = 1024;
    value = value.substr(0, value.size() - 2);
  }
  const auto n = number_of(value);
  if (!n || *n > UINT64_MAX / unit) return std::nullopt;
  return *n * unit;
}

// The value of "KEY VALUE" in a cgroup's memory.stat.
std::optional<std::uint64_t> stat_value(const std::string& stat, std::string_view key) {
  const auto text = line_value(stat, key, ' ');
  return text ? number_of(*text) : std::nullopt;
}

// What one cgroup may still take; nullopt when it sets no limit below the machine's memory, or reads implausibly.
std::optional<std::uint64_t> cgroup_free(const CgroupMemoryFiles& files, std::optional<std::uint64_t> total) {
  if (!files.limit || !files.usage) return std::nullopt;
  const auto limit = number_of(*files.limit);  // "max" (no limit) is no number
  const auto usage = number_of(*files.usage);
  if (!limit || !usage || *limit == 0) return std::nullopt;
  if (total && *limit >= *total) return std::nullopt;  // binds no more than the machine does
  std::uint64_t reclaimable = 0;
  if (files.stat) {
    // v1's total_inactive_file covers the cgroups below too, as its usage does.
    auto inactive = stat_value(*files.stat, "total_inactive_file");
    if (!inactive) inactive = stat_value(*files.stat, "inactive_file");
    reclaimable = std::min(inactive.value_or(0), *usage);
  }
  const std::uint64_t held = *usage - reclaimable;
  if (held >= *limit) return std::nullopt;  // 0 free: not plausible for a process that runs
  return *limit - held;
}

std::optional<std::string> file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

// The cgroup at `path` (as /proc/self/cgroup names it) under `mount`, and each one above it up to the mount.
void add_cgroup_levels(HostMemoryFiles& out, const std::filesystem::path& mount, const std::string& path,
                       const char* limit_file, const char* usage_file) {
  const std::filesystem::path relative = std::filesystem::path(path).lexically_normal().relative_path();
  std::filesystem::path dir = mount;
  std::error_code error;
  const bool inside = !relative.empty() && *relative.begin() != "..";
  if (inside && std::filesystem::is_directory(mount / relative, error)) dir = mount / relative;
  // else the mount is the process's own cgroup (another cgroup namespace), or there is no such cgroup here
  for (;;) {
    CgroupMemoryFiles level{file_text(dir / limit_file), file_text(dir / usage_file), file_text(dir / "memory.stat")};
    if (level.limit || level.usage) out.cgroups.push_back(std::move(level));
    if (dir == mount || dir.native().size() <= mount.native().size()) break;
    dir = dir.parent_path();
  }
}

}  // namespace

std::optional<std::uint64_t> available_host_memory(const HostMemoryFiles& files) {
  std::optional<std::uint64_t> total, best;
  const auto consider = [&best](std::uint64_t bytes) { best = best ? std::min(*best, bytes) : bytes; };
  if (files.meminfo) {
    total = meminfo_bytes(*files.meminfo, "MemTotal");
    if (total == 0u) total.reset();
    const auto available = meminfo_bytes(*files.meminfo, "MemAvailable");
    if (available && *available > 0 && (!total || *available <= *total)) consider(*available);
  }
  for (const auto& cgroup : files.cgroups)
    if (const auto free = cgroup_free(cgroup, total)) consider(*free);
  return best;
}

HostMemoryFiles read_host_memory_files(const std::string& root) {
  const std::filesystem::path base = root.empty() ? std::filesystem::path("/") : std::filesystem::path(root);
  HostMemoryFiles out;
  out.meminfo = file_text(base / "proc/meminfo");
  const auto cgroups = file_text(base / "proc/self/cgroup");
  if (!cgroups) return out;
  std::istringstream lines(*cgroups);
  std::string line;
  while (std::getline(lines, line)) {
    // "ID:CONTROLLERS:PATH"; the path may itself hold colons.
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? std::string::npos : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string id = line.substr(0, first), controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (id == "0" && controllers.empty()) {
      add_cgroup_levels(out, base / "sys/fs/cgroup", path, "memory.max", "memory.current");
    } else {
      std::istringstream names(controllers);
      std::string name;
      while (std::getline(names, name, ','))
        if (name == "memory")
          add_cgroup_levels(out, base / "sys/fs/cgroup/memory", path, "memory.limit_in_bytes",
                            "memory.usage_in_bytes");
    }
  }
  return out;
}

std::optional<std::uint64_t> available_host_memory() { return available_host_memory(read_host_memory_files()); }

}  // namespace ks
