#include "stencil/stencil_kernel_resources.hpp"

#include "stencil/tiled_design.hpp"

#include <array>
#include <string_view>

namespace ks {

namespace {

struct RegisterCount {
  std::string_view kernel;
  int registers;
};

// ptxas -v on the sm_90 build (CUDA 13.0.88) of stencil/cuda/naive_window.cu, tiled_window.cu, median.cu,
// median_network.cu, window_multi.cu and separable_3x3_packed.cu (the tiled laplacian: separable3_packed_kernel
// <1, 16, 2 or 3>) (scripts/kernel_registers). Other architectures and compilers allocate a few registers more or
// less: a model's occupancy is an estimate.
constexpr std::array<RegisterCount, 58> kRegisters{{
    {"naive_window<u8,1,linear>", 32},    {"naive_window<u8,1,gradient>", 32},
    {"naive_window<u8,1,unsharp>", 32},   {"naive_window<u8,4,linear>", 35},
    {"naive_window<u8,4,gradient>", 46},  {"naive_window<u8,4,unsharp>", 35},
    {"naive_window<f32,1,linear>", 32},   {"naive_window<f32,1,gradient>", 32},
    {"naive_window<f32,1,unsharp>", 32},  {"naive_window<f32,4,linear>", 37},
    {"naive_window<f32,4,gradient>", 46}, {"naive_window<f32,4,unsharp>", 37},
    {"tiled_window<u8,1,linear>", 32},    {"tiled_window<u8,1,gradient>", 32},
    {"tiled_window<u8,1,unsharp>", 32},   {"tiled_window<u8,4,linear>", 32},
    {"tiled_window<u8,4,gradient>", 32},  {"tiled_window<u8,4,unsharp>", 31},
    {"tiled_window<f32,1,linear>", 32},   {"tiled_window<f32,1,gradient>", 32},
    {"tiled_window<f32,1,unsharp>", 32},  {"tiled_window<f32,4,linear>", 32},
    {"tiled_window<f32,4,gradient>", 32}, {"tiled_window<f32,4,unsharp>", 32},
    {"naive_median<u8,1>", 32},           {"naive_median<u8,4>", 40},
    {"naive_median<f32,1>", 32},          {"naive_median<f32,4>", 40},
    {"median_network<u8,1,r1>", 40},      {"median_network<u8,1,r2>", 40},
    {"median_network<u8,1,r3>", 62},      {"median_network<u8,4,r1>", 47},
    {"median_network<u8,4,r2>", 43},      {"median_network<u8,4,r3>", 63},
    {"median_network<f32,1,r1>", 37},     {"median_network<f32,1,r2>", 56},
    {"median_network<f32,1,r3>", 125},    {"median_network<f32,4,r1>", 45},
    {"median_network<f32,4,r2>", 39},     {"median_network<f32,4,r3>", 48},
    {"window_multi<u8,1,rx0>", 44},       {"window_multi<u8,1,rx1>", 42},
    {"window_multi<u8,1,rx2>", 40},       {"window_multi<u8,1,rx3>", 40},
    {"window_multi<u8,1,rx4>", 40},       {"window_multi<u8,1,rx5>", 44},
    {"window_multi<u8,1,rx6>", 42},       {"window_multi<u8,1,rx7>", 40},
    {"window_multi<f32,1,rx0>", 40},      {"window_multi<f32,1,rx1>", 40},
    {"window_multi<f32,1,rx2>", 39},      {"window_multi<f32,1,rx3>", 40},
    {"window_multi<f32,1,rx4>", 40},      {"window_multi<f32,1,rx5>", 40},
    {"window_multi<f32,1,rx6>", 40},      {"window_multi<f32,1,rx7>", 39},
    {"laplacian3x3_packed<u8,1,n4>", 64}, {"laplacian3x3_packed<u8,1,n8>", 64},
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
  std::optional<TiledDesign> tiled;
  if (variant == "tiled") tiled = tiled_design(plan, type, channels, geometry.block);
  r.kernel_name = tiled ? tiled->kernel_name : kernel_name(plan, variant, type, channels);
  for (const RegisterCount& c : kRegisters)
    if (c.kernel == r.kernel_name) r.registers_per_thread = c.registers;
  if (r.registers_per_thread == 0) return std::nullopt;
  if (tiled) r.shared_bytes = tiled->shared_bytes;
  return r;
}

const char* kernel_resources_source() {
  return "registers/thread from ptxas (sm_90 build, CUDA 13.0)";
}

}  // namespace ks
