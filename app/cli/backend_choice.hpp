#pragma once
// Which backend runs a request when --backend is not given: the one --variant or --block imply, otherwise
// CUDA when a device is usable. Shared by the commands that run kernels (`sim`; `run` has the same rule).
#include <string>

#include "engine/engine.hpp"
#include "registry/kernel_spec.hpp"

namespace ks::cli {

// `note` says why, when the choice was not explicit and fell to the CPU.
Backend choose_backend(const std::string& backend, const std::string& variant, const std::string& block,
                       const KernelSpec& spec, Engine& engine, std::string& note);

}  // namespace ks::cli
