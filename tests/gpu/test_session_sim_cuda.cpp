// The live simulation through the session on the CUDA backend (GPU machine; skipped without a device): the frames
// stay on the GPU for interop, hold what the CPU reference computes, and paint, carry-over and export work there.
#include <gtest/gtest.h>

#include "core/device_image_ref.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

Session::Options gpu_options() {
  Session::Options o;
  o.cpu_threads = 2;
  return o;
}

Image cpu_reference(const std::string& kernel, const std::vector<std::string>& params, int w, int h, long long steps) {
  Engine engine(Engine::Options{2});
  SimulationRequest r;
  r.kernel = kernel;
  r.params = KernelRegistry::builtin().get(kernel).default_params();
  for (const auto& p : params) r.params.set_assignment(p);
  r.width = w, r.height = h;
  Simulation sim(engine, r);
  sim.step(steps);
  return sim.image();
}

void start_cuda(Session& s, const std::string& kernel, int w, int h, const std::vector<std::string>& params) {
  s.open_sample();
  s.select_kernel(kernel);
  s.set_backend(Backend::Cuda);
  s.simulation().set_playing(false);
  s.simulation().set_grid_size(w, h);
  for (const auto& p : params) s.set_param(p.substr(0, p.find('=')), p.substr(p.find('=') + 1));
  s.run_now();
}

TEST(SessionSimCuda, LifeFramesStayOnTheGpuAndMatchTheCpu) {
  KS_REQUIRE_GPU();
  Session s(gpu_options());
  start_cuda(s, "life", 1023, 7, {"density=0.4", "seed=3"});
  s.simulation().step(100);
  s.wait_idle();
  const ui::DisplayFrame f = s.display_frame();
  ASSERT_TRUE(f.output_device) << "CUDA frames go to the display through interop, not the host";
  EXPECT_EQ(f.output, nullptr);
  EXPECT_EQ(s.simulation().report()->variant, "bitpacked");
  EXPECT_TRUE(test::images_match(download_device_image(f.output_device), cpu_reference("life", {"density=0.4", "seed=3"}, 1023, 7, 100)));
  // Switching the variant carries the state over on the GPU and the generation goes on.
  s.set_variant("tiled");
  s.run_now();
  s.simulation().step(20);
  s.wait_idle();
  EXPECT_EQ(s.simulation().generation(), 120);
  EXPECT_TRUE(test::images_match(download_device_image(s.display_frame().output_device),
                                 cpu_reference("life", {"density=0.4", "seed=3"}, 1023, 7, 120)));
  EXPECT_GT(s.simulation().timing().percent_of_copy, 0);
}

TEST(SessionSimCuda, HeatOnTheGpuPaintsAndExports) {
  KS_REQUIRE_GPU();
  test::TempDir tmp;
  Session s(gpu_options());
  start_cuda(s, "heat", 300, 201, {});
  s.simulation().step(50);
  s.wait_idle();
  EXPECT_TRUE(test::images_match(download_device_image(s.display_frame().output_device),
                                 cpu_reference("heat", {}, 300, 201, 50), 1e-5));
  SimulationRunner::Brush b = s.simulation().brush();
  b.radius = 0;
  b.value = 7;
  s.simulation().set_brush(b);
  s.simulation().paint_line(10.5, 20.5, 10.5, 20.5);
  s.wait_idle();
  const Image painted = download_device_image(s.display_frame().output_device);
  EXPECT_EQ(painted.elements<float>()[20 * 300 + 10], 7.0f);
  s.simulation().export_sequence(tmp / "frames", 4);
  s.wait_idle();
  EXPECT_EQ(s.simulation().frames_written(), 4);
  EXPECT_EQ(load_image(tmp / "frames" / "frame_00003.png").width(), 300);
  s.export_result(tmp / "heat.png");
  EXPECT_EQ(load_image(tmp / "heat.png").height(), 201);
}

}  // namespace
}  // namespace ks::app
