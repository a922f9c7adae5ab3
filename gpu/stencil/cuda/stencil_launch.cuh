#pragma once
// The seam between the host orchestration (stencil_cuda.cu) and the kernel files: each variant turns a job into a
// launch description (kernel, block, shared memory) that can be validated and measured before any data moves,
// and a function that runs it on a pair of device images.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/cuda/device_buffer.cuh"
#include "core/cuda/launch_check.cuh"
#include "core/cuda/launch_grid.cuh"  // block_dim, ceil_div, check_grid
#include "core/device_info.hpp"
#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "stencil/cuda/filter_taps.cuh"
#include "stencil/cuda/stencil_device.cuh"
#include "stencil/stencil_plan.hpp"

namespace ks::cuda {

struct StencilJob {
  const StencilPlan& plan;
  const DeviceInfo& device;
  ElemType type;
  int channels;
  int width, height;  // of the images the launch will run on
  BlockShape block;
};

// Pitched input and output of the same shape (the job's).
struct DeviceImages {
  unsigned char* in;
  std::size_t in_pitch;
  unsigned char* out;
  std::size_t out_pitch;
};

struct StencilLaunch {
  KernelLaunchShape shape;  // validated when the launch is made
  std::function<void(cudaStream_t, const DeviceImages&)> run;
  std::shared_ptr<DeviceBuffer> weights;  // device weights the kernel reads, alive as long as the launch
};

// One per variant; each validates the block against the device and its kernel (usage Error otherwise).
StencilLaunch make_naive_launch(const StencilJob& job);
StencilLaunch make_tiled_launch(const StencilJob& job);
StencilLaunch make_separable_launch(const StencilJob& job);  // picks the 3x3 register kernel or the strip kernel
StencilLaunch make_median_launch(const StencilJob& job, bool tiled);

// ---- helpers shared by the launch makers -------------------------------------------------------------------

// Calls f.template operator()<T, C>() for the job's element type and channel count (already checked).
template <class F>
decltype(auto) dispatch_pixel(ElemType type, int channels, F&& f) {
  if (type == ElemType::U8) {
    if (channels == 1) return f.template operator()<std::uint8_t, 1>();
    return f.template operator()<std::uint8_t, 4>();
  }
  if (channels == 1) return f.template operator()<float, 1>();
  return f.template operator()<float, 4>();
}

inline int finish_kind(const StencilPlan& plan) {
  switch (plan.kind) {
    case StencilPlan::Kind::GradientMagnitude: return kGradient;
    case StencilPlan::Kind::UnsharpMask: return kUnsharp;
    default: return kLinear;
  }
}

// Calls f.template operator()<KIND>() for the plan's finishing step.
template <class F>
decltype(auto) dispatch_finish(const StencilPlan& plan, F&& f) {
  switch (finish_kind(plan)) {
    case kGradient: return f.template operator()<kGradient>();
    case kUnsharp: return f.template operator()<kUnsharp>();
    default: return f.template operator()<kLinear>();
  }
}

template <class T, int C>
ImageView<T, C> input_view(const StencilJob& job, const DeviceImages& d) {
  return {d.in, d.in_pitch, job.width, job.height};
}
template <class T, int C>
ImageView<T, C> output_view(const StencilJob& job, const DeviceImages& d) {
  return {d.out, d.out_pitch, job.width, job.height};
}

inline BorderRead border_read(const StencilPlan& plan, ElemType type) {
  return {plan.border, type == ElemType::U8 ? float(saturate_u8(plan.border_value)) : plan.border_value};
}

inline FinishParams finish_params(const StencilPlan& plan) {
  return {U8Divider::make(plan.a.divisor), plan.a.divisor, plan.amount};
}

// Uploads the plan's window weights (filter_taps.cuh: filter a, then a gradient's b) into l.weights, which keeps
// them alive as long as the launch; returns filter a's on the device (b's follow it, one window further).
template <class A>
const A* upload_window_weights(StencilLaunch& l, const StencilPlan& plan) {
  const std::vector<A> w = plan_window_weights<A>(plan);
  l.weights = std::make_shared<DeviceBuffer>(upload_array(w.data(), w.size(), "filter weights"));
  return l.weights->as<A>();
}
inline std::size_t window_taps(const StencilPlan& plan) {
  return std::size_t(2 * plan.radius_x() + 1) * std::size_t(2 * plan.radius_y() + 1);
}

template <class T>
const char* type_name() {
  return sizeof(T) == 1 ? "u8" : "f32";
}
inline const char* finish_name(int kind) {
  return kind == kLinear ? "linear" : kind == kGradient ? "gradient" : "unsharp";
}
// "tiled_window<u8,4,linear>"
template <class T, int C>
std::string kernel_name(const char* what, const char* detail = nullptr) {
  return std::string(what) + "<" + type_name<T>() + "," + std::to_string(C) +
         (detail ? std::string(",") + detail : std::string()) + ">";
}

}  // namespace ks::cuda
