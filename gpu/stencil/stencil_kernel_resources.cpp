#include "stencil/stencil_kernel_resources.hpp"

#include <array>
#include <string_view>

namespace ks {

namespace {

struct RegisterCount {
  std::string_view kernel;
  int registers;
};

// ptxas -v on the sm_90 build (CUDA 13.0.88) of stencil/cuda/naive_window.cu, tiled_window.cu and median.cu.
// Other architectures and compilers allocate a few registers more or less: a model's occupancy is an
// estimate.
constexpr std::array<RegisterCount, 32> kRegisters{{
    {"naive_window<u8,1,linear>", 32},    {"naive_window<u8,1,gradient>", 32},
    {"naive_window<u8,1,unsharp>", 32},   {"naive_window<u8,4,linear>", 35},
    {"naive_window<u8,4,gradient>", 46},  {"naive_window<u8,4,unsharp>", 35},
    {"naive_window<f32,1,linear>", 32},   {"naive_window<f32,1,gradient>", 32},
    {"naive_window<f32,1,unsharp>", 32},  {"naive_window<f32,4,linear>", 37},
    {"naive_window<f32,4,gradient>", 46}, {"naive_window<f32,4,unsharp>", 37},
    {"tiled_window<u8,1,linear>", 32},    {"tiled_window<u8,1,gradient>", 32},
    {"tiled_window<u8,1,unsharp>", 32},   {"tiled_window<u8,4,linear>", 32},
    {"tiled_window<u8,4,gradient>", 40},  {"tiled_window<u8,4,unsharp>", 32},
    {"tiled_window<f32,1,linear>", 32},   {"tiled_window<f32,1,gradient>", 32},
    {"tiled_window<f32,1,unsharp>", 32},  {"tiled_window<f32,4,linear>", 38},
    {"tiled_window<f32,4,gradient>", 40}, {"tiled_window<f32,4,unsharp>", 38},
    {"naive_median<u8,1>", 32},           {"naive_median<u8,4>", 40},
    {"naive_median<f32,1>", 32},          {"naive_median<f32,4>", 40},
    {"tiled_median<u8,1>", 32},           {"tiled_median<u8,4>", 32},
    {"tiled_median<f32,1>", 32},          {"tiled_median<f32,4>", 32},
}};

// The name stencil/cuda/stencil_launch.cuh's kernel_name gives the kernel the variant launches.
std::string kernel_name(const StencilPlan& plan, const std::string& variant, ElemType type, int channels) {
  const std::string pixel = std::string(type == ElemType::U8 ? "u8" : "f32") + "," + std::to_string(channels);
  if (plan.kind == StencilPlan::Kind::Median) return variant + "_median<" + pixel + ">";
  const char* finish = plan.kind == StencilPlan::Kind::GradientMagnitude ? "gradient"
                       : plan.kind == StencilPlan::Kind::UnsharpMask     ? "unsharp"
                                                                         : "linear";
  return variant + "_window<" + pixel + "," + finish + ">";
}

}  // namespace

std::optional<KernelResources> stencil_kernel_resources(const StencilPlan& plan, const std::string& variant,
                                                        ElemType type, int channels,
                                                        const LaunchGeometry& geometry) {
  if (variant != "naive" && variant != "tiled") return std::nullopt;
  KernelResources r;
  r.kernel_name = kernel_name(plan, variant, type, channels);
  for (const RegisterCount& c : kRegisters)
    if (c.kernel == r.kernel_name) r.registers_per_thread = c.registers;
  if (r.registers_per_thread == 0) return std::nullopt;
  if (geometry.shared_tile)
    r.shared_bytes = std::size_t(geometry.tile_width()) * std::size_t(geometry.tile_height()) *
                     std::size_t(channels) * (type == ElemType::U8 ? 1 : 4);
  return r;
}

const char* kernel_resources_source() {
  return "registers/thread from ptxas (sm_90 build, CUDA 13.0)";
}

}  // namespace ks
