#pragma once
// The data path, left to right: host image -> (upload) -> kernel(params, launch) -> (download) -> result + report.
// The CLI and the GUI both call this; neither runs kernels any other way.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/device_image_ref.hpp"
#include "core/image.hpp"
#include "core/kernel_counters.hpp"
#include "core/launch_shape.hpp"
#include "core/occupancy.hpp"
#include "core/peaks.hpp"
#include "core/runtime.hpp"
#include "core/timing.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"

namespace ks {

struct StencilRequest {
  std::string kernel;                 // registry id
  ParamSet params;                    // checked values (start from spec.default_params())
  Backend backend = Backend::Cpu;
  std::string variant;                // empty: "cpu" for the CPU backend, the fastest applicable CUDA variant
  std::optional<BlockShape> block;    // CUDA only; empty: the variant's default (32x8)
  int warmup = 1;
  int repeat = 5;
  // On 4-channel images the 4th channel is alpha: the kernel filters it like the others (the timings cover all
  // four), then the input's alpha is copied back, so an RGBA file keeps its transparency (a Sobel of an opaque
  // alpha would otherwise make the whole image transparent). Off: all four channels come out filtered.
  bool keep_alpha = true;
  // CUDA backend only (the CPU backend ignores both). keep_on_device: the result also stays on the GPU, in
  // StencilResult::output_device, so the display can show it through CUDA-GL interop. download = false (with
  // keep_on_device) skips the device -> host copy: StencilResult::output stays empty and download_ms is 0; read
  // pixels with read_device_pixel or the whole image with download_device_image when they are needed.
  bool keep_on_device = false;
  bool download = true;
  // CUDA backend: read the hardware counters of one more launch after the timed ones (RunReport::counters).
  bool counters = false;
};

// One run, as the timing tables, JSON reports and sidecars show it.
struct RunReport {
  std::string kernel;
  std::string variant;
  Backend backend = Backend::Cpu;
  std::string device;                 // GPU name, or "CPU (N threads)"
  std::string cpu_simd;               // CPU backend: the instruction set of its SIMD loops; empty on CUDA
  ImageShape shape;
  std::vector<std::pair<std::string, std::string>> params;
  std::optional<BlockShape> block;
  double upload_ms = 0;               // 0 on the CPU backend
  double download_ms = 0;
  TimingStats kernel_time;
  // The first warm-up launch (wall clock to its end): what a single timing would show and the median hides,
  // one-time costs included (on CUDA lazy module loading where it is the kernel's first use, on the CPU
  // first-touch page faults). None without warm-up.
  std::optional<double> first_launch_ms;
  CostModel cost;
  double gbps = 0;                    // cost.bytes / median kernel time
  double copy_bandwidth_gbps = 0;     // measured device copy bandwidth; 0 on the CPU backend
  double percent_of_copy = 0;         // gbps / copy_bandwidth_gbps * 100; 0 on the CPU backend
  std::optional<OccupancyReport> occupancy;
  RooflineFigures roofline;  // intensity, achieved rates and the backend's peaks (Engine::peaks)
  std::optional<KernelCounters> counters;  // asked for (StencilRequest::counters) and readable: one launch's
  std::string counters_unavailable;        // asked for and not readable: why (the driver, CUPTI, no GPU)
};

struct StencilResult {
  Image output;      // same element type and channel count as the input the kernel received
  RunReport report;
  DeviceImageRef output_device;  // the same result on the GPU (alpha restored too), when keep_on_device asked
};

// The stencil runner over the process's Runtime (thread pool, CUDA context, peaks): simulations and lab runs
// take the same object as their Runtime, so one Engine serves every family.
class Engine : public Runtime {
 public:
  using Runtime::Runtime;

  // Runs a stencil kernel of the registry on `input`. The input must be of a type and channel count the kernel
  // takes (see prepare_stencil_input); everything is validated before any work starts.
  StencilResult run_stencil(const Image& input, const StencilRequest& request);

  // The default CUDA variant for a kernel and its parameters: separable when it applies, else tiled.
  static std::string default_cuda_variant(const KernelSpec& spec, const ParamSet& params);
};

// Brings a loaded image to what stencil kernels take: U16 becomes F32, 2 and 3 channels become 4.
// `to_type` forces U8 or F32 when given.
Image prepare_stencil_input(const Image& loaded, std::optional<ElemType> to_type);
// The same for a shared image, returning the image itself when it needs no change (u8 or f32 grey or RGBA as
// the kernel wants it), so that a large image is not held twice.
std::shared_ptr<const Image> prepare_stencil_input(const std::shared_ptr<const Image>& loaded,
                                                   std::optional<ElemType> to_type);
// Undoes the channel change for saving: 4 -> 3 when the file had 3 channels, 4 -> (gray, alpha) when it had 2.
// The result itself (moved, not copied) when nothing changes.
Image restore_channels(Image result, int original_channels);

}  // namespace ks
