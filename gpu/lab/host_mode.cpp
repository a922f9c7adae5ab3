#include "lab/host_mode.hpp"

#include "core/error.hpp"

namespace ks::lab {

namespace {
constexpr HostMode kModes[] = {HostMode::Pageable, HostMode::Pinned, HostMode::Mapped, HostMode::Managed,
                               HostMode::ManagedPrefetch};
}

const char* to_string(HostMode mode) noexcept {
  switch (mode) {
    case HostMode::Pageable:
      return "pageable";
    case HostMode::Pinned:
      return "pinned";
    case HostMode::Mapped:
      return "mapped";
    case HostMode::Managed:
      return "managed";
    case HostMode::ManagedPrefetch:
      return "managed-prefetch";
  }
  return "?";
}

HostMode host_mode_from_string(const std::string& text) {
  for (HostMode m : kModes)
    if (text == to_string(m)) return m;
  throw_usage("unknown host memory mode '" + text + "'",
              "use pageable, pinned, mapped, managed or managed-prefetch");
}

bool has_copies(HostMode mode) noexcept {
  return mode == HostMode::Pageable || mode == HostMode::Pinned || mode == HostMode::ManagedPrefetch;
}

}  // namespace ks::lab
