#include "core/backend.hpp"

#include "core/error.hpp"

namespace ks {

const char* to_string(Backend b) noexcept { return b == Backend::Cpu ? "cpu" : "cuda"; }

Backend backend_from_string(const std::string& s) {
  if (s == "cpu") return Backend::Cpu;
  if (s == "cuda") return Backend::Cuda;
  throw_usage("unknown backend '" + s + "'", "use --backend cpu or --backend cuda");
}

}  // namespace ks
