#pragma once
// Published limits of a few NVIDIA GPUs, as DeviceInfo, so the occupancy arithmetic and the launch overlay
// work on a machine without a GPU (a classroom): "what would 16x16 blocks do on an H100?". A model is not a
// measurement: whatever shows one says so.
#include <string>
#include <vector>

#include "core/device_info.hpp"

namespace ks {

struct DeviceModel {
  std::string id;     // "h100", as --device-model takes it
  DeviceInfo limits;  // name "H100 SXM (model)", memory sizes 0: nothing is allocated on a model
};

// H100 SXM, A100 SXM, L4, RTX 4090, T4, in that order.
const std::vector<DeviceModel>& device_models();
// The model of that id (case-insensitive: "H100", "rtx4090"); a usage Error naming the ids otherwise.
const DeviceModel& device_model(const std::string& id);
// "h100, a100, l4, rtx4090, t4"
std::string device_model_ids();

}  // namespace ks
