#pragma once
// CUDA execution of stencil plans. Declared without CUDA headers; in a build without CUDA every function throws a
// Device error that suggests the CPU backend.
#include <string>
#include <optional>
#include <vector>

#include "core/cuda_context.hpp"
#include "core/device_image_ref.hpp"
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
  // The first warm-up launch, host wall clock to its end: what a single timing would show, one-time costs
  // included (lazy module loading where this launch is the kernel's first use, first touches). None without
  // warm-up.
  std::optional<double> first_launch_ms;
  OccupancyReport occupancy;        // of the variant's main kernel at this block shape
  DeviceImageRef output_device;     // the result on the GPU, when StencilOutputs::keep_on_device asked for it
  CounterReading counters;          // when StencilOutputs::counters asked for them
};

// Where a run's result goes. The default (download, free the device memory) is what the CLI and the benchmarks use;
// the GUI keeps the result on the GPU and puts it on screen through CUDA-GL interop, without a host round trip.
struct StencilOutputs {
  bool download = true;              // copy the result into StencilRun::output (timed as download_ms)
  bool keep_on_device = false;       // hand the device result over in StencilRun::output_device
  bool device_keeps_input_alpha = false;  // 4 channels: copy the input's alpha into output_device (not timed)
  bool counters = false;             // one more launch after the timed ones, under the counter profiler
};

// Variant names: "naive" (one thread per output pixel, global-memory reads), "tiled" (shared-memory tile with
// halo), "separable" (row pass then column pass; only when plan.separable()), "recursive" (the gaussian's IIR
// approximation: stencil/recursive_gaussian.hpp; plan.gaussian_sigma >= 0.5).
// Validates the block against the device and the kernel (threads, dimensions, registers, shared memory) before
// anything runs and throws a usage Error that says which limit the block breaks.
// Runs `warmup` untimed launches, then `repeat` timed ones; the output is the last launch's result.
StencilRun run_stencil(CudaContext& ctx, const StencilPlan& plan, const std::string& variant, const Image& in,
                       BlockShape block, int warmup, int repeat, const StencilOutputs& outputs = {});

// The same on an image already on the GPU (the Python module's CuPy and Numba arrays), nothing crossing to the
// host: work queued before on any stream finishes first; `in` (device memory of the context's device) is read
// where it lies when its start and pitch are multiples of 256 bytes (rows aligned as cudaMallocPitch aligns them,
// which the kernels' vector loads rely on), else it is copied once on the device into a pitched buffer (timed as
// upload_ms). The result stays on the GPU (StencilRun::output_device, finished; with `keep_input_alpha` 4 channels
// take the input's alpha) and StencilRun::output stays empty.
StencilRun run_stencil_on_device(CudaContext& ctx, const StencilPlan& plan, const std::string& variant,
                                 const DeviceImageRef& in, BlockShape block, int warmup, int repeat,
                                 bool keep_input_alpha);

// The occupancy the variant's main kernel would get at this block shape, and a usage Error if it cannot run.
OccupancyReport stencil_occupancy(CudaContext& ctx, const StencilPlan& plan, const std::string& variant,
                                  ElemType type, int channels, BlockShape block);

// The block shape cudaOccupancyMaxPotentialBlockSize suggests for the variant's main kernel, made 2-D.
BlockShape suggest_block(CudaContext& ctx, const StencilPlan& plan, const std::string& variant, ElemType type,
                         int channels);

}  // namespace ks::cuda
