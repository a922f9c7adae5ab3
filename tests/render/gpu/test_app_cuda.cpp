// The desktop app's CUDA path without Qt (label gpu; skips without a CUDA device): the session's launch panel data
// (occupancy with its limiter, the runtime's suggestion, the block sweep) and `kernelscope --screenshot` through
// CUDA-GL interop, whose frame must equal the CPU backend's pixel for pixel (u8 results are bit-identical across
// backends, and the same GL draws both frames).
#ifdef KS_HAVE_SCREENSHOT
#include <gtest/gtest.h>

#include "core/image.hpp"
#include "gui/screenshot.hpp"
#include "io/image_io.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

app::Session::Options quick_options() {
  app::Session::Options o;
  o.repeat = 2;
  o.sweep_repeat = 1;
  o.reference_repeat = 1;
  return o;
}

TEST(AppCuda, LaunchInfoSuggestionAndSweepOnTheDevice) {
  KS_REQUIRE_GPU();
  app::Session s(quick_options());
  ASSERT_TRUE(s.device().cuda) << s.device().unavailable_reason;
  s.open_sample();
  s.set_backend(Backend::Cuda);
  s.select_kernel("box");
  s.set_variant("tiled");
  s.set_block(BlockShape{16, 16});
  const auto& info = s.launch_info();
  ASSERT_TRUE(info.occupancy) << info.problem;
  EXPECT_EQ(info.occupancy->block_threads, 256);
  EXPECT_GT(info.occupancy->occupancy, 0.0);
  EXPECT_LE(info.occupancy->occupancy, 1.0);
  EXPECT_FALSE(info.occupancy->limiter.empty());

  const BlockShape suggested = s.suggest_block();
  EXPECT_GT(suggested.x * suggested.y, 0);
  EXPECT_LE(suggested.x * suggested.y, s.device().info.max_threads_per_block);

  s.run_now();
  s.wait_idle();
  ASSERT_TRUE(s.last_report()) << (s.last_error() ? s.last_error()->full_message() : "no run");
  EXPECT_EQ(s.last_report()->backend, Backend::Cuda);
  ASSERT_TRUE(s.cpu_reference());
  EXPECT_TRUE(s.cpu_reference()->identical) << "u8 box: CUDA and CPU agree bit for bit";
  EXPECT_FALSE(s.output()) << "the app keeps CUDA results on the GPU for interop";
  EXPECT_TRUE(s.output_device());

  s.start_sweep();
  s.wait_idle();
  ASSERT_TRUE(s.sweep());
  const app::SweepGrid& grid = *s.sweep();
  EXPECT_TRUE(grid.complete);
  int ok = 0;
  for (const app::SweepCell& c : grid.cells) {
    const int threads = c.block.x * c.block.y;
    if (threads > s.device().info.max_threads_per_block) {
      EXPECT_EQ(c.status, app::SweepCell::Status::Invalid) << to_string(c.block);
    } else if (c.status == app::SweepCell::Status::Ok) {
      ++ok;
      EXPECT_GT(c.median_ms, 0.0) << to_string(c.block);
      EXPECT_GT(c.occupancy, 0.0) << to_string(c.block);
    }
  }
  EXPECT_GE(ok, 20) << "most power-of-two shapes up to 1024 threads run the tiled box";
  ASSERT_TRUE(grid.fastest());
}

TEST(AppCuda, ScreenshotGoesThroughInteropAndEqualsTheCpuFrame) {
  KS_REQUIRE_GPU();
  test::TempDir dir;
  app::ScreenshotRequest r;
  r.kernel = "sobel";
  r.width = 1024;
  r.height = 768;
  r.panels = false;
  r.backend = "cuda";
  r.out = dir / "cuda.png";
  const app::ScreenshotResult gpu = app::take_screenshot(r);
  EXPECT_EQ(gpu.display_path.rfind("CUDA-GL interop", 0), 0u) << gpu.display_path << " (" << gpu.platform << ")";
  r.backend = "cpu";
  r.out = dir / "cpu.png";
  const app::ScreenshotResult cpu = app::take_screenshot(r);
  EXPECT_EQ(cpu.display_path.rfind("host upload", 0), 0u) << cpu.display_path;
  EXPECT_TRUE(test::images_match(gpu.frame, cpu.frame));
  EXPECT_TRUE(test::images_match(load_image(dir / "cuda.png"), gpu.frame)) << "the file holds the frame";
}

}  // namespace
}  // namespace ks
#endif
