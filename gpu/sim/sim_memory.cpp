#include "sim/sim_memory.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "sim/sim_math.hpp"

namespace ks::sim {

namespace {

// cudaMallocPitch rounds rows up to the device's pitch alignment; 512 bytes covers the GPUs this runs on.
constexpr std::uint64_t kPitchAlignment = 512;
// The CUDA context, timing events and the reduction scratch want a little room beside the state.
constexpr std::uint64_t kDeviceReserve = 64ull << 20;

std::uint64_t stored_row_bytes(SimKind kind, const std::string& variant, int width) {
  const std::uint64_t w = std::uint64_t(width);
  switch (kind) {
    case SimKind::Life:
      return stores_life_words(variant) ? std::uint64_t(words_per_row(width)) * 8 : w;
    case SimKind::Heat:
      return w * 4;
    case SimKind::GrayScott:
      return w * 4;
  }
  return w;
}

void add_part(std::string& detail, const std::string& name, std::uint64_t bytes) {
  detail += (detail.empty() ? "" : ", ") + name + " " + bytes_text(bytes);
}

}  // namespace

bool stores_life_words(const std::string& variant) {
  return variant == "cpu_bitpacked" || variant == "bitpacked" || variant == "multistep";
}

void check_grid_size(SimKind kind, const std::string& variant, int w, int h) {
  if (w < 1 || h < 1)
    throw_usage(fmt::format("the grid {}x{} has no cells", w, h), "give --size WxH, e.g. 512x512");
  const bool words = kind == SimKind::Life && stores_life_words(variant);
  const long long cells = 1LL * w * h;
  if (w > kMaxGridSide || h > kMaxGridSide)
    throw_usage(fmt::format("the grid {}x{} is too large", w, h),
                fmt::format("use at most {} cells per side{}", kMaxGridSide,
                            words ? "" : fmt::format(" and {} cells in all", kMaxByteGridCells)));
  if (words || cells <= kMaxByteGridCells) return;
  if (kind == SimKind::Life)
    throw_usage(
        fmt::format("the grid {}x{} ({} cells) is too large for life's '{}' variant, which keeps a byte "
                    "per cell (at most {} cells)",
                    w, h, cells, variant, kMaxByteGridCells),
        fmt::format("use a packed variant, 64 cells per word, up to {0}x{0}: --variant bitpacked or "
                    "multistep with --backend cuda, or --variant cpu_bitpacked",
                    kMaxGridSide));
  throw_usage(
      fmt::format("the grid {}x{} is too large", w, h),
      fmt::format("use at most {} cells per side and {} cells in all", kMaxGridSide, kMaxByteGridCells));
}

SimMemoryNeed simulation_memory(SimKind kind, const std::string& variant, Backend backend, int width,
                                int height) {
  SimMemoryNeed m;
  const int fields = kind == SimKind::GrayScott ? 2 : 1;
  const std::uint64_t row = stored_row_bytes(kind, variant, width);
  const std::uint64_t state = row * std::uint64_t(height) * std::uint64_t(fields);
  // The initial state is kept for reset() as the backend loads it: packed words, bytes or floats.
  m.host_bytes = state;
  add_part(m.host_detail, "initial state", state);
  if (backend == Backend::Cpu) {
    m.host_bytes += 2 * state;
    add_part(m.host_detail, "2 state buffers", 2 * state);
    return m;
  }
  const std::uint64_t pitched = (row + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  const std::uint64_t buffers = 2 * pitched * std::uint64_t(height) * std::uint64_t(fields);
  m.device_bytes = buffers + kDeviceReserve;
  add_part(m.device_detail, "2 state buffers", buffers);
  add_part(m.device_detail, "reserve", kDeviceReserve);
  return m;
}

std::string bytes_text(std::uint64_t bytes) {
  const double b = double(bytes);
  if (b >= 1e9) return fmt::format("{:.3g} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.3g} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.3g} kB", b / 1e3);
  return fmt::format("{} bytes", bytes);
}

std::string memory_text(const SimMemoryNeed& need) {
  std::string s = fmt::format("{} of host memory ({})", bytes_text(need.host_bytes), need.host_detail);
  if (need.device_bytes)
    s += fmt::format("; {} of GPU memory ({})", bytes_text(need.device_bytes), need.device_detail);
  return s;
}

void require_memory(const std::string& what, std::uint64_t needed, std::optional<std::uint64_t> available,
                    const std::string& kind, const std::string& detail, const std::string& where,
                    const std::string& hint) {
  if (!available || needed <= *available) return;
  throw_usage(fmt::format("{} needs {} of {} memory ({}), but {} is free{}", what, bytes_text(needed), kind,
                          detail, bytes_text(*available), where),
              hint);
}

}  // namespace ks::sim
