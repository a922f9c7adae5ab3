#include "lab/lab_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <new>

namespace ks::lab {

namespace {

std::string join_names(const std::vector<ArraySpec>& arrays, bool (*pick)(const ArraySpec&)) {
  std::string s;
  for (const auto& a : arrays)
    if (pick(a)) s += (s.empty() ? "" : ", ") + a.name;
  return s;
}

void add_part(std::string& detail, const std::string& what, std::uint64_t bytes) {
  if (!bytes) return;
  detail += (detail.empty() ? "" : ", ") + fmt::format("{} {}", what, memory_text(bytes));
}

}  // namespace

std::string memory_text(std::uint64_t bytes) {
  if (bytes < 1000) return fmt::format("{} B", bytes);
  if (bytes < 1000 * 1000) return fmt::format("{:.3g} kB", double(bytes) / 1e3);
  if (bytes < 1000ull * 1000 * 1000) return fmt::format("{:.3g} MB", double(bytes) / 1e6);
  return fmt::format("{:.3g} GB", double(bytes) / 1e9);
}

std::int64_t chunk_begin(std::int64_t n, int chunks, int c) noexcept {
  // n * c / chunks without overflow for n up to 2^62 and c <= 4096.
  return (n / chunks) * c + (n % chunks) * c / chunks;
}

MemoryNeed memory_need(const std::vector<ArraySpec>& arrays, Backend backend, HostMode host, bool reference,
                       int streams, int chunks, const LabSize& size, const LabCudaRun* run) {
  std::uint64_t inputs = 0, outputs = 0, all = 0, per_chunk = 0;
  for (const auto& a : arrays) {
    if (a.is_input()) inputs += a.bytes();
    if (a.is_output()) outputs += a.bytes();
    if (a.split == ArraySplit::PerChunk) per_chunk += a.bytes();
    all += a.bytes();
  }
  MemoryNeed m;
  // The filled inputs stay as they are for every repeat (InOut arrays are restored from them).
  m.host_bytes = inputs;
  add_part(m.host_detail, "inputs " + join_names(arrays, [](const ArraySpec& a) { return a.is_input(); }), inputs);
  if (reference) {
    m.host_bytes += outputs;
    add_part(m.host_detail, "CPU reference outputs", outputs);
  }
  if (backend == Backend::Cpu) {
    m.host_bytes += outputs;
    add_part(m.host_detail, "outputs " + join_names(arrays, [](const ArraySpec& a) { return a.is_output(); }),
             outputs);
    return m;
  }
  // Pageable inputs are uploaded from the filled arrays themselves; other modes hold a copy of everything.
  const std::uint64_t mode_host = host == HostMode::Pageable ? outputs : all;
  const std::uint64_t chunk_copies = streams > 1 ? per_chunk * std::uint64_t(chunks) : 0;
  m.host_bytes += mode_host + chunk_copies;
  add_part(m.host_detail, std::string(to_string(host)) + " arrays", mode_host + chunk_copies);
  if (streams > 1) {
    m.host_bytes += outputs;  // the serial run's outputs, compared byte for byte with the streamed run's
    add_part(m.host_detail, "serial outputs", outputs);
  }
  if (host != HostMode::Mapped) {
    m.device_bytes = all + chunk_copies;
    add_part(m.device_detail,
             fmt::format("{} {}", host == HostMode::Pageable || host == HostMode::Pinned ? "device arrays" : "managed arrays",
                         join_names(arrays, [](const ArraySpec&) { return true; })),
             m.device_bytes);
  }
  if (run) {
    LabSize piece = size;
    if (streams > 1) piece.dims[0] = size.n() / chunks + (size.n() % chunks ? 1 : 0);
    // Stream 0 also runs the serial (whole-size) launches; the other streams run chunks only.
    const std::uint64_t ws = std::uint64_t(std::max(run->workspace_bytes(size), run->workspace_bytes(piece))) +
                             std::uint64_t(run->workspace_bytes(piece)) * std::uint64_t(streams - 1);
    m.device_bytes += ws;
    add_part(m.device_detail, "workspace", ws);
  }
  // The CUDA context, the timing events and library handles want a little room beside the arrays.
  constexpr std::uint64_t kReserve = 64ull << 20;
  m.device_bytes += kReserve;
  add_part(m.device_detail, "reserve", kReserve);
  return m;
}

void require_memory(const std::string& what, std::uint64_t needed, std::optional<std::uint64_t> available,
                    const std::string& kind, const std::string& detail, const std::string& where,
                    const std::string& hint) {
  if (!available || needed <= *available) return;
  throw_usage(fmt::format("{} needs {} of {} memory ({}), {} is free{}", what, memory_text(needed), kind, detail,
                          memory_text(*available), where),
              hint);
}

HostBytes allocate_host(std::size_t bytes, const std::string& what) {
  try {
    return HostBytes(new std::byte[bytes]);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::OutOfMemory,
                fmt::format("could not allocate {} of host memory for {}", memory_text(bytes), what),
                "use a smaller --size");
  }
}

}  // namespace ks::lab
