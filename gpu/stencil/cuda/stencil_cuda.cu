// Host side of the CUDA stencils: checks the request, picks the kernel for (plan, variant, type, channels),
// validates its launch against the device before any data moves, then times upload, every launch and download
// with CUDA events.
#include <cuda_runtime.h>

#include <memory>
#include <optional>

#include "core/cuda/device_image.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/timing.hpp"
#include "stencil/cuda/alpha_copy.cuh"
#include "stencil/cpu/plan_check.hpp"
#include "stencil/cuda/recursive_kernels.cuh"
#include "stencil/cuda/separable_kernels.cuh"
#include "stencil/cuda/stencil_cuda.hpp"

namespace ks::cuda {

namespace {

void check_pixels(ElemType type, int channels) {
  if (type != ElemType::U8 && type != ElemType::F32)
    throw_usage(std::string("CUDA stencils take u8 or f32 images, not ") + to_string(type),
                "convert the image first (--type u8 or --type f32)");
  if (channels != 1 && channels != 4)
    throw_usage("CUDA stencils take images with 1 or 4 channels, not " + std::to_string(channels),
                "convert the image to gray (1) or RGBA (4) first");
}

// The launch of `variant` for this job, or a usage Error that says why there is none.
StencilLaunch make_launch(const StencilJob& job, const std::string& variant) {
  check_pixels(job.type, job.channels);
  cpu::check_stencil_plan(job.plan, job.type);
  const bool median = job.plan.kind == StencilPlan::Kind::Median;
  if (variant == "naive") return median ? make_median_launch(job, false) : make_naive_launch(job);
  // tiled: the lesson kernel, or for the median and the filters without a separable variant a faster tiled
  // kernel (stencil/tiled_design.hpp decides; the occupancy report names the kernel that ran).
  if (variant == "tiled") return make_tiled_launch(job);
  if (variant == "separable") {
    if (median) throw_usage("the median has no separable variant", "use naive or tiled");
    if (!job.plan.separable()) throw_usage("separable needs a separable filter", "use tiled");
    // Up to 3x3 the filter is memory-bound: the register kernels, when the block suits their warp shuffles.
    if (separable3_packed_applies(job)) return make_separable3_packed_launch(job);
    if (job.plan.radius_x() <= 1 && job.plan.radius_y() <= 1 && separable3_group(job.block) != 0)
      return make_separable3_launch(job);
    return make_separable_strip_launch(job);
  }
  if (variant == "recursive") return make_recursive_launch(job);  // checks that the plan is a gaussian's
  throw_usage("unknown CUDA variant '" + variant + "'", "use naive, tiled, separable or recursive");
}

// For occupancy queries and suggestions, where there is no image: a large one, as in the benchmarks.
StencilJob probe_job(CudaContext& ctx, const StencilPlan& plan, ElemType type, int channels, BlockShape block) {
  return StencilJob{plan, ctx.device(), type, channels, 4096, 4096, block};
}

void check_counts(int warmup, int repeat) {
  if (warmup < 0 || repeat < 1)
    throw_usage("warm-up runs must be >= 0 and timed runs >= 1 (got " + std::to_string(warmup) + " and " +
                std::to_string(repeat) + ")");
}

// `warmup` untimed launches, then `repeat` timed ones into `kernel_ms`; the first warm-up launch alone, to its
// end, into `first_launch_ms` (it pays what the median hides: loading the module on first use).
void time_launches(StencilLaunch& launch, cudaStream_t s, const DeviceImages& images, int warmup, int repeat,
                   EventTimer& timer, std::vector<double>& kernel_ms, std::optional<double>& first_launch_ms) {
  for (int i = 0; i < warmup; ++i) {
    std::optional<Stopwatch> first;
    if (i == 0) first.emplace();
    launch.run(s, images);
    check_launch(launch.shape.name);
    if (first) {
      check(cudaStreamSynchronize(s), ("the first launch of " + launch.shape.name).c_str());
      first_launch_ms = first->elapsed_ms();
    }
  }
  check(cudaStreamSynchronize(s), ("the warm-up runs of " + launch.shape.name).c_str());
  kernel_ms.reserve(std::size_t(repeat));
  for (int i = 0; i < repeat; ++i) {
    timer.start();
    launch.run(s, images);
    check_launch(launch.shape.name);
    timer.stop();
    kernel_ms.push_back(timer.elapsed_ms());
  }
}

// `result` on the GPU, finished, for a reader on another stream or in another library.
DeviceImageRef keep_on_device(DeviceImage image, const ImageShape& shape, cudaStream_t s) {
  check(cudaStreamSynchronize(s), "waiting for the result to stay on the GPU");
  auto owner = std::make_shared<DeviceImage>(std::move(image));
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  return DeviceImageRef{owner->data(), owner->pitch(), shape, owner, device};
}

// Row starts and pitch the kernels can read in place (their aligned vector loads; cudaMallocPitch gives more).
constexpr std::size_t kInPlaceAlignment = 256;

}  // namespace

StencilRun run_stencil(CudaContext& ctx, const StencilPlan& plan, const std::string& variant, const Image& in,
                       BlockShape block, int warmup, int repeat, const StencilOutputs& outputs) {
  // The context's device, whichever device this thread last used (a process may hold a context per GPU).
  ctx.make_current();
  if (in.empty()) throw_usage("the image is empty", "give an image with at least one pixel");
  check_counts(warmup, repeat);
  // Everything about the launch is checked before any device memory is taken or data moves.
  const StencilJob job{plan, ctx.device(), in.type(), in.channels(), in.width(), in.height(), block};
  StencilLaunch launch = make_launch(job, variant);
  StencilRun result;
  result.occupancy = occupancy_of(ctx.device(), launch.shape);

  auto s = static_cast<cudaStream_t>(ctx.stream());
  const std::size_t row_bytes = in.shape().row_bytes();
  const std::size_t rows = std::size_t(in.height());
  DeviceImage din(row_bytes, rows), dout(row_bytes, rows);
  if (outputs.download) result.output = Image(in.shape());  // host memory too, before the timed work
  const DeviceImages images{din.data(), din.pitch(), dout.data(), dout.pitch()};

  EventTimer timer(s);
  timer.start();
  check(cudaMemcpy2DAsync(din.data(), din.pitch(), in.data(), row_bytes, row_bytes, rows, cudaMemcpyHostToDevice,
                          s),
        "cudaMemcpy2DAsync (upload)");
  timer.stop();
  result.upload_ms = timer.elapsed_ms();

  time_launches(launch, s, images, warmup, repeat, timer, result.kernel_ms, result.first_launch_ms);
  if (outputs.counters)  // the same launch again: it writes the same output from the same input
    result.counters = ctx.read_counters([&] { launch.run(s, images); }, launch.shape.name);

  if (outputs.download) {
    timer.start();
    check(cudaMemcpy2DAsync(result.output.data(), row_bytes, dout.data(), dout.pitch(), row_bytes, rows,
                            cudaMemcpyDeviceToHost, s),
          "cudaMemcpy2DAsync (download)");
    timer.stop();
    result.download_ms = timer.elapsed_ms();
  }
  if (outputs.keep_on_device) {
    if (outputs.device_keeps_input_alpha && in.channels() == 4)
      copy_alpha_on_device(din.data(), din.pitch(), dout.data(), dout.pitch(), in.shape(), s);
    // Finished before anyone else reads it: the display copies it on another thread's stream.
    result.output_device = keep_on_device(std::move(dout), in.shape(), s);
  }
  return result;
}

StencilRun run_stencil_on_device(CudaContext& ctx, const StencilPlan& plan, const std::string& variant,
                                 const DeviceImageRef& in, BlockShape block, int warmup, int repeat,
                                 bool keep_input_alpha) {
  ctx.make_current();
  const ImageShape& shape = in.shape;
  if (!in || shape.pixel_count() == 0) throw_usage("the image is empty", "give an image with at least one pixel");
  check_counts(warmup, repeat);
  cudaPointerAttributes where{};
  check(cudaPointerGetAttributes(&where, in.data), "cudaPointerGetAttributes (the input array)");
  if (where.type != cudaMemoryTypeDevice && where.type != cudaMemoryTypeManaged)
    throw_usage("the input array is not in device memory", "pass a CuPy or Numba device array, or a numpy array");
  if (where.device != ctx.device().index)
    throw_usage("the input array is on GPU " + std::to_string(where.device) + ", the CUDA backend runs on GPU " +
                    std::to_string(ctx.device().index),
                "move the array to that GPU first");
  const StencilJob job{plan, ctx.device(), shape.type, shape.channels, shape.width, shape.height, block};
  StencilLaunch launch = make_launch(job, variant);
  StencilRun result;
  result.occupancy = occupancy_of(ctx.device(), launch.shape);

  // Whatever wrote the input (another library, another stream) has finished before the kernels read it.
  check(cudaDeviceSynchronize(), "waiting for the input array's producer");
  auto s = static_cast<cudaStream_t>(ctx.stream());
  const std::size_t row_bytes = shape.row_bytes();
  const std::size_t rows = std::size_t(shape.height);
  DeviceImage dout(row_bytes, rows);
  const bool in_place = reinterpret_cast<std::uintptr_t>(in.data) % kInPlaceAlignment == 0 &&
                        in.pitch % kInPlaceAlignment == 0;
  std::optional<DeviceImage> copy;
  EventTimer timer(s);
  if (!in_place) {
    copy.emplace(row_bytes, rows);
    timer.start();
    check(cudaMemcpy2DAsync(copy->data(), copy->pitch(), in.data, in.pitch, row_bytes, rows,
                            cudaMemcpyDeviceToDevice, s),
          "cudaMemcpy2DAsync (the input array into aligned rows)");
    timer.stop();
    result.upload_ms = timer.elapsed_ms();
  }
  auto* src = copy ? copy->data() : static_cast<unsigned char*>(const_cast<void*>(in.data));
  const std::size_t src_pitch = copy ? copy->pitch() : in.pitch;
  const DeviceImages images{src, src_pitch, dout.data(), dout.pitch()};
  time_launches(launch, s, images, warmup, repeat, timer, result.kernel_ms, result.first_launch_ms);
  if (keep_input_alpha && shape.channels == 4)
    copy_alpha_on_device(src, src_pitch, dout.data(), dout.pitch(), shape, s);
  result.output_device = keep_on_device(std::move(dout), shape, s);
  return result;
}

OccupancyReport stencil_occupancy(CudaContext& ctx, const StencilPlan& plan, const std::string& variant,
                                  ElemType type, int channels, BlockShape block) {
  ctx.make_current();  // the occupancy calculator asks the current device
  return occupancy_of(ctx.device(), make_launch(probe_job(ctx, plan, type, channels, block), variant).shape);
}

BlockShape suggest_block(CudaContext& ctx, const StencilPlan& plan, const std::string& variant, ElemType type,
                         int channels) {
  ctx.make_current();  // the occupancy calculator asks the current device
  // Shared memory depends on the block's shape, not only on its size: ask the runtime about 32-wide shapes
  // (rows of whole warps, which every kernel here reads best), with each size's own shared memory.
  const StencilLaunch probe = make_launch(probe_job(ctx, plan, type, channels, {32, 8}), variant);
  auto smem_for = [&](int threads) -> std::size_t {
    const BlockShape b{32, std::max(1, threads / 32)};
    try {
      return make_launch(probe_job(ctx, plan, type, channels, b), variant).shape.dynamic_shared;
    } catch (const Error&) {
      return std::size_t(1) << 30;  // cannot run at this size: no blocks fit
    }
  };
  int min_grid = 0, threads = 0;
  check(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &threads, probe.shape.func, smem_for,
                                                       ctx.device().max_threads_per_block),
        "cudaOccupancyMaxPotentialBlockSizeVariableSMem");
  BlockShape b{32, std::max(1, threads / 32)};
  // Keep the suggestion runnable (the runtime may answer a size whose tile the kernel cannot take).
  while (b.y > 1) {
    try {
      make_launch(probe_job(ctx, plan, type, channels, b), variant);
      break;
    } catch (const Error&) {
      b.y /= 2;
    }
  }
  return b;
}

}  // namespace ks::cuda
