#include "lab/host_mode.hpp"

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace ks::lab {

namespace {
constexpr EnumName<HostMode> kModeNames[] = {{HostMode::Pageable, "pageable"},
                                             {HostMode::Pinned, "pinned"},
                                             {HostMode::Mapped, "mapped"},
                                             {HostMode::Managed, "managed"},
                                             {HostMode::ManagedPrefetch, "managed-prefetch"}};
}

const char* to_string(HostMode mode) noexcept {
  return name_of(kModeNames, mode);
}

HostMode host_mode_from_string(const std::string& text) {
  return value_named(kModeNames, text, "host memory mode");
}

bool has_copies(HostMode mode) noexcept {
  return mode == HostMode::Pageable || mode == HostMode::Pinned || mode == HostMode::ManagedPrefetch;
}

}  // namespace ks::lab
