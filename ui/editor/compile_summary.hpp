#pragma once
// What the editor says the compiler made of the entry (registers, stack, spills, shared memory, the most threads
// a block may have, compile time, cache) and its theoretical occupancy at the block chosen in the editor, with
// the arithmetic the Launch section uses (core/occupancy_model.hpp) on the GPU present or a device model. Qt-free.
#include <optional>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/occupancy_model.hpp"
#include "usercode/family.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::editor {

struct FactRow {
  std::string label;
  std::string value;  // "-" where ptxas gave no figure (KernelFacts::resources_reported)
};

// The entry's facts, then the compile time and whether it came from the cache.
std::vector<FactRow> fact_rows(const usercode::CompiledKernel& kernel);

struct BlockSize {
  int x = 32, y = 8;
};
// The block a family's kernel is launched with by default: 32x8 for the 2-D families (stencil, step), 256 threads
// for array; 256 for a kernel of no family.
BlockSize default_block(std::optional<usercode::Family> family);

// The device the occupancy is worked out for: the GPU present, or a model of one (an H100 without a GPU).
struct OccupancyDevice {
  DeviceInfo info;
  bool model = false;
};

struct EditorOccupancy {
  std::optional<OccupancyLimits> limits;  // none: `problem` says why
  std::string problem;
};

// The entry's occupancy with blocks of x by y threads: none where ptxas gave no register count, where the block
// exceeds what the kernel allows (its launch bounds, its registers) or what the device can launch.
EditorOccupancy occupancy_at(const DeviceInfo& device, const usercode::KernelFacts& entry, BlockSize block);

// "50% occupancy, limited by registers: 4 blocks of 8 warps per SM (32 of 64 warps)"
std::string occupancy_text(const OccupancyLimits& limits);

}  // namespace ks::editor
