#include "core/backend.hpp"

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace ks {

namespace {
constexpr EnumName<Backend> kBackendNames[] = {{Backend::Cpu, "cpu"}, {Backend::Cuda, "cuda"}};
}

const char* to_string(Backend b) noexcept {
  return name_of(kBackendNames, b);
}

Backend backend_from_string(const std::string& s) {
  return value_named(kBackendNames, s, "backend", "use " + names_listed(kBackendNames, "--backend "));
}

}  // namespace ks
