#pragma once
// CUDA execution of stencil plans. Declared without CUDA headers; in a build without CUDA every function throws a
// Device error that suggests the CPU backend.
#include <string>
#include <vector>

#include "core/cuda_context.hpp"
#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "core/occupancy.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks::cuda {

struct StencilRun {
  Image output;
  double upload_ms = 0;             // host -> device, CUDA events
  double download_ms = 0;           // device -> host, CUDA events
  std::vector<double> kernel_ms;    // one entry per timed repeat (all passes of the variant), CUDA events
  OccupancyReport occupancy;        // of the variant's main kernel at this block shape
};

// Variant names: "naive" (one thread per output pixel, global-memory reads), "tiled" (shared-memory tile with
// halo), "separable" (row pass then column pass; only when plan.separable()).
// Validates the block against the device and the kernel (threads, dimensions, registers, shared memory) before
// anything runs and throws a usage Error that says which limit the block breaks.
// Runs `warmup` untimed launches, then `repeat` timed ones; the output is the last launch's result.
StencilRun run_stencil(CudaContext& ctx, const StencilPlan& plan, const std::string& variant, const Image& in,
                       BlockShape block, int warmup, int repeat);

// The occupancy the variant's main kernel would get at this block shape, and a usage Error if it cannot run.
OccupancyReport stencil_occupancy(CudaContext& ctx, const StencilPlan& plan, const std::string& variant,
                                  ElemType type, int channels, BlockShape block);

// The block shape cudaOccupancyMaxPotentialBlockSize suggests for the variant's main kernel, made 2-D.
BlockShape suggest_block(CudaContext& ctx, const StencilPlan& plan, const std::string& variant, ElemType type,
                         int channels);

}  // namespace ks::cuda
