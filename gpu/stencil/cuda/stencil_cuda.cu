// Host side of the CUDA stencils: picks the kernel for (plan, variant, type, channels), validates its launch
// against the device, moves the image, and times upload, every launch and download with CUDA events.
#include <cuda_runtime.h>

#include <functional>
#include <memory>

#include "core/cuda/cuda_resources.cuh"
#include "core/cuda/launch_check.cuh"
#include "stencil/cuda/median_kernels.cuh"
#include "stencil/cuda/stencil_cuda.hpp"

namespace ks::cuda {

namespace {

// A kernel ready to run on one pair of device images.
struct Launch {
  KernelLaunchShape shape;
  dim3 grid;
  std::shared_ptr<DeviceBuffer> weights;  // naive/tiled weights, alive as long as the launch
  std::function<void(cudaStream_t)> run;
};

template <class T>
constexpr const char* type_name() {
  return sizeof(T) == 1 ? "u8" : "f32";
}

const char* finish_name(int kind) { return kind == kLinear ? "linear" : kind == kGradient ? "gradient" : "unsharp"; }

template <class T, int C>
std::string kernel_name(const char* what, const char* detail) {
  return std::string(what) + "<" + type_name<T>() + "," + std::to_string(C) + (detail ? std::string(",") + detail : "") + ">";
}

int finish_kind(const StencilPlan& plan) {
  switch (plan.kind) {
    case StencilPlan::Kind::GradientMagnitude: return kGradient;
    case StencilPlan::Kind::UnsharpMask: return kUnsharp;
    default: return kLinear;
  }
}

template <class T>
std::vector<Acc<T>> window_weights(const LinearFilter& f) {
  if constexpr (sizeof(T) == 1) return {f.iw.begin(), f.iw.end()};
  else return {f.w.begin(), f.w.end()};
}

template <class T>
Taps<Acc<T>> taps_of(const LinearFilter& f, bool x_axis) {
  const auto& s = *f.separable;
  Taps<Acc<T>> t{};
  if constexpr (sizeof(T) == 1) {
    const auto& v = x_axis ? s.iwx : s.iwy;
    t.count = int(v.size());
    for (int i = 0; i < t.count; ++i) t.w[i] = v[i];
  } else {
    const auto& v = x_axis ? s.wx : s.wy;
    t.count = int(v.size());
    for (int i = 0; i < t.count; ++i) t.w[i] = v[i];
  }
  return t;
}

dim3 grid_for(int w, int h, dim3 block, int rows_per_thread = 1) {
  return dim3((w + block.x - 1) / block.x, (h + block.y * rows_per_thread - 1) / (block.y * rows_per_thread));
}

template <class T, int C, int KIND>
Launch window_launch(const StencilPlan& plan, const std::string& variant, dim3 block, ImageView<T, C> in,
                     ImageView<T, C> out, BorderRead br, FinishParams fp) {
  Launch l;
  l.shape.block = block;
  const int rx = plan.radius_x(), ry = plan.radius_y();
  if (variant == "separable") {
    if (!plan.separable())
      throw_usage("the separable variant needs a separable filter", "use --variant tiled");
    const Taps<Acc<T>> ax = taps_of<T>(plan.a, true), ay = taps_of<T>(plan.a, false);
    const Taps<Acc<T>> bxt = KIND == kGradient ? taps_of<T>(plan.b, true) : Taps<Acc<T>>{};
    const Taps<Acc<T>> byt = KIND == kGradient ? taps_of<T>(plan.b, false) : Taps<Acc<T>>{};
    l.shape.func = reinterpret_cast<const void*>(&separable_window_kernel<T, C, KIND>);
    l.shape.name = kernel_name<T, C>("separable_window", finish_name(KIND));
    l.shape.dynamic_shared = separable_smem_bytes<T, C, KIND>(int(block.x), int(block.y), ax.count / 2, ay.count / 2);
    l.grid = grid_for(in.width, in.height, block, kRowsPerThread);
    l.run = [=, grid = l.grid, smem = l.shape.dynamic_shared](cudaStream_t s) {
      separable_window_kernel<T, C, KIND><<<grid, block, smem, s>>>(in, out, ax, ay, bxt, byt, br, fp);
    };
    return l;
  }
  // naive / tiled: the 2-D window weights of a (and b) in one device buffer.
  std::vector<Acc<T>> w = window_weights<T>(plan.a);
  const std::size_t taps = w.size();
  if (KIND == kGradient) {
    auto wb = window_weights<T>(plan.b);
    if (wb.size() != taps) throw Error(ErrorKind::Internal, "gradient filters of different sizes");
    w.insert(w.end(), wb.begin(), wb.end());
  }
  l.weights = std::make_shared<DeviceBuffer>(w.size() * sizeof(Acc<T>));
  check(cudaMemcpy(l.weights->get(), w.data(), w.size() * sizeof(Acc<T>), cudaMemcpyHostToDevice),
        "cudaMemcpy (filter weights)");
  const Acc<T>* wa = l.weights->as<Acc<T>>();
  const Acc<T>* wb = wa + taps;
  l.grid = grid_for(in.width, in.height, block);
  if (variant == "naive") {
    l.shape.func = reinterpret_cast<const void*>(&naive_window_kernel<T, C, KIND>);
    l.shape.name = kernel_name<T, C>("naive_window", finish_name(KIND));
    l.run = [=, grid = l.grid](cudaStream_t s) {
      naive_window_kernel<T, C, KIND><<<grid, block, 0, s>>>(in, out, wa, wb, rx, ry, br, fp);
    };
  } else if (variant == "tiled") {
    l.shape.func = reinterpret_cast<const void*>(&tiled_window_kernel<T, C, KIND>);
    l.shape.name = kernel_name<T, C>("tiled_window", finish_name(KIND));
    l.shape.dynamic_shared = align_up<T>(tiled_tile_elems<T, C>(int(block.x), int(block.y), rx, ry) * sizeof(T)) +
                             w.size() * sizeof(Acc<T>);
    l.run = [=, grid = l.grid, smem = l.shape.dynamic_shared](cudaStream_t s) {
      tiled_window_kernel<T, C, KIND><<<grid, block, smem, s>>>(in, out, wa, wb, rx, ry, br, fp);
    };
  } else {
    throw_usage("unknown CUDA variant '" + variant + "'", "use naive, tiled or separable");
  }
  return l;
}

template <class T, int C>
Launch median_launch(const StencilPlan& plan, const std::string& variant, dim3 block, ImageView<T, C> in,
                     ImageView<T, C> out, BorderRead br) {
  Launch l;
  l.shape.block = block;
  const int r = plan.median_radius;
  if (r < 1 || (2 * r + 1) * (2 * r + 1) > kMaxMedianWindow)
    throw_usage("median radius " + std::to_string(r) + " is not supported on CUDA", "use radius 1 to 3");
  l.grid = grid_for(in.width, in.height, block);
  if (variant == "naive") {
    l.shape.func = reinterpret_cast<const void*>(&naive_median_kernel<T, C>);
    l.shape.name = kernel_name<T, C>("naive_median", nullptr);
    l.run = [=, grid = l.grid](cudaStream_t s) { naive_median_kernel<T, C><<<grid, block, 0, s>>>(in, out, r, br); };
  } else if (variant == "tiled") {
    l.shape.func = reinterpret_cast<const void*>(&tiled_median_kernel<T, C>);
    l.shape.name = kernel_name<T, C>("tiled_median", nullptr);
    l.shape.dynamic_shared = std::size_t(block.x + 2 * r) * (block.y + 2 * r) * C * sizeof(T);
    l.run = [=, grid = l.grid, smem = l.shape.dynamic_shared](cudaStream_t s) {
      tiled_median_kernel<T, C><<<grid, block, smem, s>>>(in, out, r, br);
    };
  } else {
    throw_usage("median has no '" + variant + "' variant", "use naive or tiled");
  }
  return l;
}

template <class T, int C>
Launch make_launch(const StencilPlan& plan, const std::string& variant, BlockShape block, ImageView<T, C> in,
                   ImageView<T, C> out) {
  if (block.x <= 0 || block.y <= 0)
    throw_usage("block " + to_string(block) + " has no threads", "both sides must be at least 1, e.g. 32x8");
  const dim3 b(unsigned(block.x), unsigned(block.y));
  const BorderRead br{plan.border, sizeof(T) == 1 ? float(saturate_u8(plan.border_value)) : plan.border_value};
  if (plan.kind == StencilPlan::Kind::Median) return median_launch<T, C>(plan, variant, b, in, out, br);
  const FinishParams fp{plan.a.divisor, plan.amount};
  switch (finish_kind(plan)) {
    case kGradient: return window_launch<T, C, kGradient>(plan, variant, b, in, out, br, fp);
    case kUnsharp: return window_launch<T, C, kUnsharp>(plan, variant, b, in, out, br, fp);
    default: return window_launch<T, C, kLinear>(plan, variant, b, in, out, br, fp);
  }
}

// Calls f.template operator()<T, C>() for the image's element type and channel count.
template <class F>
decltype(auto) with_pixel_type(ElemType type, int channels, F&& f) {
  if (type != ElemType::U8 && type != ElemType::F32)
    throw_usage(std::string("CUDA stencils take u8 or f32 images, not ") + to_string(type), "use --type u8 or f32");
  if (channels != 1 && channels != 4)
    throw_usage("CUDA stencils take 1 or 4 channels, not " + std::to_string(channels),
                "convert the image to 1 or 4 channels first");
  if (type == ElemType::U8) {
    if (channels == 1) return f.template operator()<std::uint8_t, 1>();
    return f.template operator()<std::uint8_t, 4>();
  }
  if (channels == 1) return f.template operator()<float, 1>();
  return f.template operator()<float, 4>();
}

// A launch description without images, for occupancy queries and suggestions.
Launch probe_launch(const StencilPlan& plan, const std::string& variant, ElemType type, int channels,
                    BlockShape block) {
  return with_pixel_type(type, channels, [&]<class T, int C>() {
    ImageView<T, C> none{nullptr, 0, 1, 1};
    return make_launch<T, C>(plan, variant, block, none, none);
  });
}

}  // namespace

StencilRun run_stencil(CudaContext& ctx, const StencilPlan& plan, const std::string& variant, const Image& in,
                       BlockShape block, int warmup, int repeat) {
  if (in.empty()) throw_usage("the input image is empty");
  return with_pixel_type(in.type(), in.channels(), [&]<class T, int C>() {
    auto s = static_cast<cudaStream_t>(ctx.stream());
    const std::size_t row_bytes = in.shape().row_bytes();
    const std::size_t rows = std::size_t(in.height());
    PitchedBuffer din(row_bytes, rows), dout(row_bytes, rows);
    ImageView<T, C> vin{static_cast<unsigned char*>(din.get()), din.pitch(), in.width(), in.height()};
    ImageView<T, C> vout{static_cast<unsigned char*>(dout.get()), dout.pitch(), in.width(), in.height()};

    // Everything about the launch is checked before any data moves.
    Launch launch = make_launch<T, C>(plan, variant, block, vin, vout);
    StencilRun result;
    result.occupancy = occupancy_of(ctx.device(), launch.shape);

    Event start, stop;
    start.record(s);
    check(cudaMemcpy2DAsync(din.get(), din.pitch(), in.data(), row_bytes, row_bytes, rows, cudaMemcpyHostToDevice, s),
          "cudaMemcpy2DAsync (upload)");
    stop.record(s);
    result.upload_ms = stop.since(start);

    for (int i = 0; i < warmup; ++i) {
      launch.run(s);
      check_launch(launch.shape.name.c_str());
    }
    check(cudaStreamSynchronize(s), "the warm-up launches");
    for (int i = 0; i < repeat; ++i) {
      start.record(s);
      launch.run(s);
      check_launch(launch.shape.name.c_str());
      stop.record(s);
      result.kernel_ms.push_back(stop.since(start));
    }

    result.output = Image(in.shape());
    start.record(s);
    check(cudaMemcpy2DAsync(result.output.data(), row_bytes, dout.get(), dout.pitch(), row_bytes, rows,
                            cudaMemcpyDeviceToHost, s),
          "cudaMemcpy2DAsync (download)");
    stop.record(s);
    result.download_ms = stop.since(start);
    return result;
  });
}

OccupancyReport stencil_occupancy(CudaContext& ctx, const StencilPlan& plan, const std::string& variant,
                                  ElemType type, int channels, BlockShape block) {
  return occupancy_of(ctx.device(), probe_launch(plan, variant, type, channels, block).shape);
}

BlockShape suggest_block(CudaContext& ctx, const StencilPlan& plan, const std::string& variant, ElemType type,
                         int channels) {
  // Dynamic shared memory depends on the block shape; size it for the 32-wide shapes this returns.
  const Launch probe = probe_launch(plan, variant, type, channels, BlockShape{32, 8});
  int min_grid = 0, threads = 0;
  check(cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, probe.shape.func, probe.shape.dynamic_shared, 0),
        "cudaOccupancyMaxPotentialBlockSize");
  (void)ctx;
  BlockShape b{32, std::max(1, threads / 32)};
  // Keep the suggestion runnable: shrink while the tile's shared memory does not fit.
  while (b.y > 1) {
    try {
      validate_launch(ctx.device(), probe_launch(plan, variant, type, channels, b).shape);
      break;
    } catch (const Error&) {
      b.y /= 2;
    }
  }
  return b;
}

}  // namespace ks::cuda
