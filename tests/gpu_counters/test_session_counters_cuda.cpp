// The app's Counters switch on the CUDA backend beyond the built-in stencils and lab kernels (GPU machine;
// skipped without a device): a simulation reads the counters of one more step's launch once per simulation and
// parameters, without moving its state, and a user's stencil kernel gets them from the worker process; the
// Timing section shows them and the Why section reads them. A driver that forbids counters fails here with its
// message.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/device_image_ref.hpp"
#include "session/session.hpp"
#include "session/why_cache.hpp"
#include "support/test_support.hpp"
#include "support/user_kernel_compiled.hpp"
#include "support/user_kernel_sources.hpp"

namespace ks::app {
namespace {

Session::Options gpu_options() {
  Session::Options o;
  o.cpu_threads = 2;
  return o;
}

TEST(SessionCountersCuda, ASimulationsCountersAreReadOnceAndKeepItsState) {
  KS_REQUIRE_GPU();
  Session s(gpu_options());
  s.open_sample();
  s.select_kernel("heat");
  s.set_backend(Backend::Cuda);
  s.simulation().set_playing(false);
  s.simulation().set_grid_size(1023, 517);
  s.run_now();
  s.simulation().step(3);
  s.wait_idle();
  const long long generation = s.simulation().generation();
  const Image before = download_device_image(s.display_frame().output_device);

  s.set_counter_set(CounterSet::All);  // the requests below need the L1 counts, which one pass leaves out
  s.set_counters(true);
  s.wait_idle();
  ASSERT_TRUE(s.simulation().report());
  const auto& counters = s.simulation().report()->counters;
  ASSERT_TRUE(counters) << s.simulation().report()->counters_unavailable;
  EXPECT_FALSE(counters->kernel_name.empty());
  EXPECT_GT(counters->global_load_requests, 0);
  EXPECT_GT(counters->achieved_occupancy_pct, 0);
  EXPECT_EQ(s.simulation().generation(), generation) << "the counted launch is not a step";
  EXPECT_TRUE(test::images_match(download_device_image(s.display_frame().output_device), before, 0))
      << "nor does it change the state shown";
  WhyCache why;
  ASSERT_NE(why.current(s), nullptr);
  EXPECT_TRUE(why.current(s)->counters);

  // New parameters: read again for them; off: none shown.
  s.set_param("diffusivity", "0.5");
  s.wait_idle();
  ASSERT_TRUE(s.simulation().report()->counters) << s.simulation().report()->counters_unavailable;
  s.set_counters(false);
  EXPECT_FALSE(s.simulation().report()->counters);
}

TEST(SessionCountersCuda, AUserStencilKernelGetsItsCountersFromTheWorker) {
  KS_REQUIRE_GPU();
  ::setenv("KS_WORKER", KS_CLI_PATH, 1);
  Session s(gpu_options());
  s.open_sample();
  s.set_element_type(ElemType::U8);
  s.set_backend(Backend::Cuda);
  s.select_kernel("box");
  s.set_param("radius", "1");
  s.set_counter_set(CounterSet::All);
  // The built-in first, with counters: the app's own profiler is then enabled (and stays so) while the worker
  // process reads your kernel's.
  s.set_counters(true);
  s.run_now();
  ASSERT_TRUE(s.stencil().last_report());
  ASSERT_TRUE(s.stencil().last_report()->counters) << s.stencil().last_report()->counters_unavailable;
  s.use_user_kernel(UserStencilChoice{test::compiled_kernel("smooth_u8.cu", test::kSmoothU8WithBias), "smooth_u8.cu",
                                      {0}});
  s.run_now();
  const auto& r = s.stencil().last_report();
  std::string notices;
  for (const Notice& n : s.take_notices()) notices += n.text + "\n";
  ASSERT_TRUE(r) << notices;
  EXPECT_EQ(r->variant, "yours");
  ASSERT_TRUE(r->counters) << r->counters_unavailable;
  EXPECT_EQ(r->counters->kernel_name, "smooth_u8");
  // The sample's u8 pixels read once and written once, give or take what the L2 cache kept from the upload.
  EXPECT_GT(r->counters->global_load_requests, 0);
  EXPECT_GT(r->counters->warp_execution_efficiency_pct, 50);
}

}  // namespace
}  // namespace ks::app
