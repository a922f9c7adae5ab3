#pragma once
// Checks of a command line's request that need no image and no device, so `run` and `bench` can refuse a bad
// request (exit 2) before they load files or start long work. The engine checks again; these only come first.
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "registry/kernel_spec.hpp"

namespace ks::cli {

// The kernel's defaults with each "NAME=VALUE" applied in order; usage Error for unknown names or bad values.
ParamSet params_from_assignments(const KernelSpec& spec, const std::vector<std::string>& assignments);

// Usage Error when `variant` is not one of the kernel's, belongs to another backend, or cannot run with
// `params`.
void check_variant(const KernelSpec& spec, Backend backend, const std::string& variant,
                   const ParamSet& params);

// The CUDA context, or a Device error whose hint names the CPU backend through `cpu_flag` ("--backend cpu"
// for run, "--backends cpu" for bench). Exit 1, not 2: the request is fine, the machine lacks a GPU.
CudaContext& require_cuda(Engine& engine, const std::string& cpu_flag);

// Why CUDA cannot be used here, in a form that fits after "no CUDA device: " (no hint about flags).
std::string cuda_missing_reason(Engine& engine);

// "u8" | "f32" (what stencil kernels take); usage Error otherwise.
ElemType kernel_type_from_string(const std::string& text);

}  // namespace ks::cli
