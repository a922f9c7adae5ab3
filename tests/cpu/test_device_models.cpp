// The device models' occupancy against figures worked out by hand from the published limits (CUDA programming
// guide, compute capability table; SM counts from the datasheets), as a teacher would on the board.
#include <gtest/gtest.h>

#include "core/device_models.hpp"
#include "core/error.hpp"
#include "core/occupancy_model.hpp"

namespace ks {
namespace {

OccupancyLimits on(const char* model, int threads, int registers, std::size_t shared = 0) {
  return occupancy_limits(device_model(model).limits, {threads, registers, shared});
}

TEST(DeviceModels, PublishedLimits) {
  EXPECT_EQ(device_models().size(), 5u);
  EXPECT_EQ(device_model("h100").limits.sm_count, 132);
  EXPECT_EQ(device_model("A100").limits.sm_count, 108);
  EXPECT_EQ(device_model("L4").limits.max_threads_per_sm, 1536);
  EXPECT_EQ(device_model("RTX 4090").limits.sm_count, 128);
  EXPECT_EQ(device_model("t4").limits.max_blocks_per_sm, 16);
  EXPECT_EQ(device_model("t4").limits.cc_major, 7);
  EXPECT_NE(device_model("h100").limits.name.find("(model)"), std::string::npos);
  EXPECT_THROW(device_model("v100"), Error);
}

TEST(DeviceModels, FullOccupancyWhenWarpsBind) {
  // 256 threads = 8 warps, 32 registers: 1024 registers per warp, so registers allow all 64 warps of an H100.
  // H100/A100: 64 warps per SM / 8 = 8 blocks = 64 warps = 100%.
  for (const char* m : {"h100", "a100"}) {
    const OccupancyLimits o = on(m, 256, 32);
    EXPECT_EQ(o.active_blocks, 8) << m;
    EXPECT_DOUBLE_EQ(o.occupancy, 1.0) << m;
    EXPECT_EQ(o.limiter, "warps") << m;
  }
  // L4 / RTX 4090: 48 warps per SM -> 6 blocks; T4: 32 warps -> 4 blocks. Both 100%.
  EXPECT_EQ(on("l4", 256, 32).active_blocks, 6);
  EXPECT_EQ(on("rtx4090", 256, 32).active_blocks, 6);
  EXPECT_DOUBLE_EQ(on("l4", 256, 32).occupancy, 1.0);
  EXPECT_EQ(on("t4", 256, 32).active_blocks, 4);
  EXPECT_DOUBLE_EQ(on("t4", 256, 32).occupancy, 1.0);
}

TEST(DeviceModels, RegistersBind) {
  // 64 registers: 2048 per warp; 65536 / 2048 = 32 warps = 4 blocks of 8 warps: 50% on an H100.
  const OccupancyLimits o = on("h100", 256, 64);
  EXPECT_EQ(o.by_registers, 4);
  EXPECT_EQ(o.active_blocks, 4);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.5);
  EXPECT_EQ(o.limiter, "registers");
}

TEST(DeviceModels, SharedMemoryBinds) {
  // 48 KB per block (+1 KB the system keeps on sm_80+): 228 KB / 49 KB = 4 blocks on an H100 = 32 warps =
  // 50%.
  const OccupancyLimits h = on("h100", 256, 32, 48 * 1024);
  EXPECT_EQ(h.active_blocks, 4);
  EXPECT_DOUBLE_EQ(h.occupancy, 0.5);
  EXPECT_EQ(h.limiter, "shared memory");
  // A T4 has 64 KB and keeps none: 1 block of 8 warps out of 32 = 25%.
  const OccupancyLimits t = on("t4", 256, 32, 48 * 1024);
  EXPECT_EQ(t.active_blocks, 1);
  EXPECT_DOUBLE_EQ(t.occupancy, 0.25);
}

TEST(DeviceModels, BlocksPerSmBind) {
  // One-warp blocks: the resident-block limit binds first. H100: 32 blocks = 32 of 64 warps; T4: 16 of 32.
  EXPECT_EQ(on("h100", 32, 16).active_blocks, 32);
  EXPECT_DOUBLE_EQ(on("h100", 32, 16).occupancy, 0.5);
  EXPECT_EQ(on("h100", 32, 16).limiter, "blocks per SM");
  EXPECT_DOUBLE_EQ(on("t4", 32, 16).occupancy, 0.5);
  // A 1024-thread block on an L4: 32 warps of 48 fit once: two thirds.
  EXPECT_NEAR(on("l4", 1024, 32).occupancy, 2.0 / 3.0, 1e-12);
}

TEST(DeviceModels, BlocksTheyCannotLaunch) {
  const DeviceInfo& h = device_model("h100").limits;
  EXPECT_EQ(block_problem(h, 32, 32, {1024, 32, 0}), "");
  EXPECT_NE(block_problem(h, 64, 32, {2048, 32, 0}).find("1024 threads per block"), std::string::npos);
  EXPECT_NE(block_problem(h, 32, 32, {1024, 128, 0}).find("registers per block"), std::string::npos);
  EXPECT_NE(block_problem(device_model("t4").limits, 16, 16, {256, 32, 70000}).find("shared memory"),
            std::string::npos);
}

}  // namespace
}  // namespace ks
