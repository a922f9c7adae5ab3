#pragma once
// What the program knows about the CUDA devices. Declared without CUDA headers so the CPU-only build, the CLI
// and the GUI can use it; in a build without CUDA `list_devices` is empty and `no_device_reason` says why.
#include <cstddef>
#include <string>
#include <vector>

namespace ks {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::size_t total_memory = 0;
  std::size_t free_memory = 0;
  int warp_size = 32;
  int max_threads_per_block = 0;
  int max_block_dim_x = 0, max_block_dim_y = 0, max_block_dim_z = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  std::size_t shared_memory_per_block = 0;        // without opt-in
  std::size_t shared_memory_per_block_optin = 0;  // after cudaFuncSetAttribute
  std::size_t shared_memory_per_sm = 0;
  int registers_per_block = 0;
  int registers_per_sm = 0;
  std::size_t l2_cache_bytes = 0;
  int clock_khz = 0;  // the SMs' peak clock (cudaDevAttrClockRate): the bound the FMA peak is checked against
  int driver_version = 0;   // e.g. 13000
  int runtime_version = 0;
};

std::vector<DeviceInfo> list_devices();
// Empty when a device is usable; otherwise what is missing, in words for someone who may have no NVIDIA GPU:
// "this build has no CUDA backend", "no NVIDIA GPU or driver was found", "the NVIDIA driver is older than ...".
std::string no_device_reason();
// "13.0" from 13000.
std::string cuda_version_text(int version);

}  // namespace ks
