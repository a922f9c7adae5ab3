// The launch picture on a machine without a GPU: the CPU backend with a device model shows a CUDA variant's
// geometry and occupancy, labelled as a model; without a model it says why there is none.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "cpu/session_support.hpp"
#include "session/launch/launch_words.hpp"
#include "session/session.hpp"

namespace ks::app {
namespace {

using session_test::cpu_options;

TEST(SessionLaunchPicture, NothingWithoutAModelOnTheCpu) {
  Session s(cpu_options());
  s.open_sample();
  const LaunchPicture p = s.launch_picture();
  EXPECT_FALSE(p.geometry);
  EXPECT_NE(p.why_not.find("device model"), std::string::npos);
}

TEST(SessionLaunchPicture, DeviceModelGivesGeometryAndOccupancy) {
  Session s(cpu_options());
  s.open_sample();
  s.set_param("radius", "2");
  s.set_device_model("H100");
  EXPECT_EQ(s.device_model(), "h100");
  s.set_block(BlockShape{16, 16});
  const LaunchPicture p = s.launch_picture();
  ASSERT_TRUE(p.geometry) << p.why_not;
  EXPECT_TRUE(p.model);
  EXPECT_EQ(p.variant, "tiled");
  EXPECT_EQ(p.device_name, "H100 SXM (model)");
  EXPECT_EQ(p.geometry->width, s.input()->width());
  EXPECT_EQ(p.geometry->tile_width(), 20);
  ASSERT_TRUE(p.occupancy) << p.occupancy_note;
  // tiled_window<u8,C,linear>: 32 registers (ptxas, sm_90); 256 threads; tile 20 x 20 x C bytes, far below
  // the limits: warps bind, 8 blocks of 8 warps = 100%.
  EXPECT_EQ(p.occupancy->block_threads, 256);
  EXPECT_EQ(p.occupancy->active_blocks_per_sm, 8);
  EXPECT_DOUBLE_EQ(p.occupancy->occupancy, 1.0);
  EXPECT_EQ(p.occupancy->limiter, "warps");
  EXPECT_NE(p.occupancy_note.find("ptxas"), std::string::npos);
  const std::vector<std::string> words = describe_launch(p);
  EXPECT_EQ(words[0], "launch grid: tiled on H100 SXM (model)");
  bool labelled = false;
  for (const std::string& w : words) labelled |= w.find("a model, not a measurement") != std::string::npos;
  EXPECT_TRUE(labelled);
}

TEST(SessionLaunchPicture, ModelledVariantAndBlocksAModelCannotRun) {
  Session s(cpu_options());
  s.open_sample();
  s.set_device_model("t4");
  s.set_modelled_variant("naive");
  EXPECT_FALSE(s.launch_picture().geometry->shared_tile);
  EXPECT_THROW(s.set_modelled_variant("cpu"), Error);
  s.set_block(BlockShape{64, 32});  // 2048 threads: more than any GPU runs in one block
  const LaunchPicture p = s.launch_picture();
  EXPECT_FALSE(p.occupancy);
  EXPECT_NE(p.occupancy_note.find("1024 threads per block"), std::string::npos);
  s.set_modelled_variant("separable");
  EXPECT_FALSE(s.launch_picture().geometry);
  s.set_device_model("");
  EXPECT_FALSE(s.launch_picture().geometry);
  EXPECT_THROW(s.set_device_model("v100"), Error);
}

TEST(SessionLaunchPicture, SimulationsOnAModel) {
  Session s(cpu_options());
  s.select_kernel("grayscott");
  s.run_now();
  s.set_device_model("h100");
  s.set_modelled_variant("strip");
  const LaunchPicture p = s.launch_picture();
  ASSERT_TRUE(p.geometry) << p.why_not;
  EXPECT_EQ(p.geometry->cells_y, 16);
  ASSERT_TRUE(p.occupancy) << p.occupancy_note;
  // 64 registers: 2048 per warp, 32 warps of the H100's 64 -> 4 blocks of 256 threads: 50%, registers bind.
  EXPECT_EQ(p.occupancy->active_blocks_per_sm, 4);
  EXPECT_DOUBLE_EQ(p.occupancy->occupancy, 0.5);
  EXPECT_EQ(p.occupancy->limiter, "registers");
  s.select_kernel("life");
  s.run_now();
  s.set_modelled_variant("bitpacked");
  EXPECT_FALSE(s.launch_picture().geometry);
}

}  // namespace
}  // namespace ks::app
