#pragma once
// Which backend runs a request when --backend is not given: the one --variant or --block imply, otherwise
// CUDA when a device is usable. Shared by the commands that run kernels (`run`, `sim`, and `topo`, whose sweeps
// are not registry kernels and so take only default_backend).
#include <string>

#include "engine/engine.hpp"
#include "registry/kernel_spec.hpp"

namespace ks::cli {

// Nothing asked for: CUDA when a device is usable, else the CPU with `note` saying why.
Backend default_backend(Engine& engine, std::string& note);

// `note` says why, when the choice was not explicit and fell to the CPU.
Backend choose_backend(const std::string& backend, const std::string& variant, const std::string& block,
                       const KernelSpec& spec, Engine& engine, std::string& note);

// choose_backend, then the checks every command makes of that choice: the variant (when given) must be the
// kernel's and the backend's (usage Error), a block needs the CUDA backend (usage Error), and CUDA needs a device
// (Device error suggesting --backend cpu).
Backend choose_checked_backend(const std::string& backend, const std::string& variant, const std::string& block,
                               const KernelSpec& spec, const ParamSet& params, Engine& engine, std::string& note);

// The GPU a run on `backend` used, for the "why" findings that need its limits; null on the CPU backend.
const DeviceInfo* device_of(Runtime& runtime, Backend backend);

}  // namespace ks::cli
