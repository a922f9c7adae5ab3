#include <cuda_runtime.h>
#include <dlfcn.h>

#include "core/device_info.hpp"

namespace ks {

namespace {
DeviceInfo read_device(int index) {
  cudaDeviceProp p{};
  DeviceInfo d;
  d.index = index;
  if (cudaGetDeviceProperties(&p, index) != cudaSuccess) return d;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.total_memory = p.totalGlobalMem;
  d.warp_size = p.warpSize;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.max_block_dim_x = p.maxThreadsDim[0];
  d.max_block_dim_y = p.maxThreadsDim[1];
  d.max_block_dim_z = p.maxThreadsDim[2];
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  d.shared_memory_per_block = p.sharedMemPerBlock;
  d.shared_memory_per_block_optin = p.sharedMemPerBlockOptin;
  d.shared_memory_per_sm = p.sharedMemPerMultiprocessor;
  d.registers_per_block = p.regsPerBlock;
  d.registers_per_sm = p.regsPerMultiprocessor;
  d.l2_cache_bytes = std::size_t(p.l2CacheSize);
  // cudaDeviceProp::clockRate is gone from CUDA 13's properties; the attribute remains.
  if (cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, index) != cudaSuccess) {
    cudaGetLastError();
    d.clock_khz = 0;
  }
  cudaDriverGetVersion(&d.driver_version);
  cudaRuntimeGetVersion(&d.runtime_version);
  int current = 0;
  if (cudaGetDevice(&current) == cudaSuccess && cudaSetDevice(index) == cudaSuccess) {
    std::size_t total = 0;
    cudaMemGetInfo(&d.free_memory, &total);
    cudaSetDevice(current);
  }
  return d;
}
}  // namespace

// The driver's user-space library, libcuda, is what an installed NVIDIA driver always provides.
static bool nvidia_driver_installed() {
  void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!lib) return false;
  dlclose(lib);
  return true;
}

std::vector<DeviceInfo> list_devices() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  std::vector<DeviceInfo> out;
  for (int i = 0; i < n; ++i) out.push_back(read_device(i));
  return out;
}

std::string no_device_reason() {
  int n = 0;
  cudaError_t status = cudaGetDeviceCount(&n);
  if (status != cudaSuccess) {
    cudaGetLastError();
    // Without an NVIDIA driver the runtime says "CUDA driver version is insufficient", which reads as if a driver
    // were there and old: say what a person without an NVIDIA GPU needs to hear.
    if (status == cudaErrorInsufficientDriver && !nvidia_driver_installed())
      return "no NVIDIA GPU or driver was found";
    if (status == cudaErrorNoDevice) return "no NVIDIA GPU was found (the driver is installed)";
    if (status == cudaErrorInsufficientDriver)
      return "the NVIDIA driver is older than this build's CUDA runtime needs: update the driver";
    return std::string("no CUDA device found (cudaGetDeviceCount: ") + cudaGetErrorString(status) + ")";
  }
  if (n == 0) return "no CUDA device found";
  return {};
}

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace ks
