#include "core/device_models.hpp"

#include <algorithm>
#include <cctype>

#include "core/error.hpp"

namespace ks {

namespace {

constexpr std::size_t KiB = 1024;

// The per-compute-capability limits come from the CUDA C++ Programming Guide, "Compute Capabilities", table
// "Technical Specifications per Compute Capability" (max threads per block and per SM, max resident blocks
// per SM, 64K 32-bit registers per SM and per block, shared memory per SM and the opt-in maximum per block;
// the opt-in maximum is the SM's capacity less the 1 KB the system reserves per block on sm_80+). The SM
// counts come from each product's datasheet / whitepaper: H100 SXM5 132 SMs (NVIDIA H100 Tensor Core GPU
// Architecture whitepaper), A100 SXM4 108 SMs (NVIDIA A100 Tensor Core GPU Architecture whitepaper), L4 58
// SMs (NVIDIA Ada GPU Architecture whitepaper / L4 datasheet), GeForce RTX 4090 128 SMs (Ada whitepaper), T4
// 40 SMs (NVIDIA Turing GPU Architecture whitepaper / T4 datasheet).
DeviceInfo model(const char* name, int cc_major, int cc_minor, int sms, int threads_per_sm, int blocks_per_sm,
                 std::size_t shared_per_sm, std::size_t shared_optin) {
  DeviceInfo d;
  d.index = -1;  // no CUDA device index: a model
  d.name = std::string(name) + " (model)";
  d.cc_major = cc_major;
  d.cc_minor = cc_minor;
  d.sm_count = sms;
  d.warp_size = 32;
  d.max_threads_per_block = 1024;
  d.max_block_dim_x = 1024;
  d.max_block_dim_y = 1024;
  d.max_block_dim_z = 64;
  d.max_threads_per_sm = threads_per_sm;
  d.max_blocks_per_sm = blocks_per_sm;
  d.shared_memory_per_block = 48 * KiB;
  d.shared_memory_per_block_optin = shared_optin;
  d.shared_memory_per_sm = shared_per_sm;
  d.registers_per_block = 65536;
  d.registers_per_sm = 65536;
  return d;
}

std::vector<DeviceModel> make_models() {
  return {
      {"h100", model("H100 SXM", 9, 0, 132, 2048, 32, 228 * KiB, 227 * KiB)},
      {"a100", model("A100 SXM", 8, 0, 108, 2048, 32, 164 * KiB, 163 * KiB)},
      {"l4", model("L4", 8, 9, 58, 1536, 24, 100 * KiB, 99 * KiB)},
      {"rtx4090", model("RTX 4090", 8, 9, 128, 1536, 24, 100 * KiB, 99 * KiB)},
      {"t4", model("T4", 7, 5, 40, 1024, 16, 64 * KiB, 64 * KiB)},
  };
}

std::string normalized(const std::string& id) {
  std::string s;
  for (unsigned char c : id)
    if (std::isalnum(c)) s += char(std::tolower(c));
  return s;
}

}  // namespace

const std::vector<DeviceModel>& device_models() {
  static const std::vector<DeviceModel> models = make_models();
  return models;
}

std::string device_model_ids() {
  std::string s;
  for (const DeviceModel& m : device_models()) s += (s.empty() ? "" : ", ") + m.id;
  return s;
}

const DeviceModel& device_model(const std::string& id) {
  const std::string want = normalized(id);
  for (const DeviceModel& m : device_models())
    if (m.id == want) return m;
  throw_usage("no device model '" + id + "'", "device models: " + device_model_ids());
}

}  // namespace ks
