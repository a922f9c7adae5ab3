// The Lab document through the session on the CUDA backend (GPU machine; skipped without a device): a
// streamed vecadd run agrees with the CPU and carries the serial and streamed timelines the Timing section
// draws; the launch arithmetic and the copy bandwidth (the Roofline's memory roof) are in the report; a block
// the device cannot run is refused at the run and the app goes on; kmeans on CUDA shows its image.
#include <gtest/gtest.h>

#include <set>

#include "session/lab/lab_document.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

Session::Options gpu_options() {
  Session::Options o;
  o.cpu_threads = 2;
  o.repeat = 3;
  return o;
}

TEST(SessionLabCuda, StreamedVecaddAgreesAndCarriesBothTimelines) {
  KS_REQUIRE_GPU();
  Session s(gpu_options());
  s.open_sample();
  s.select_kernel("vecadd");
  s.set_backend(Backend::Cuda);
  s.set_variant("vector4");
  s.lab().set_size_text("2^22+3");
  s.lab().set_host(lab::HostMode::Pinned);
  s.lab().set_streams(4);
  s.run_now();
  ASSERT_TRUE(s.lab().last_run());
  const lab::LabReport& r = s.lab().last_run()->report;
  EXPECT_EQ(r.backend, Backend::Cuda);
  EXPECT_TRUE(r.check.checked);
  EXPECT_TRUE(r.check.agrees) << r.check.detail;
  EXPECT_EQ(r.streams, 4);
  ASSERT_TRUE(r.streamed_matches_serial);
  EXPECT_TRUE(*r.streamed_matches_serial);
  EXPECT_EQ(r.serial_timeline.size(), 3u) << "one upload, kernel and download";
  std::set<int> streams;
  for (const auto& b : r.timeline) streams.insert(b.stream);
  EXPECT_EQ(streams.size(), 4u);
  EXPECT_EQ(r.timeline.size(), 3u * std::size_t(r.chunks));
  ASSERT_TRUE(r.launch);
  EXPECT_GT(r.launch->blocks, 0);
  EXPECT_GT(r.copy_bandwidth_gbps, 0) << "the Roofline's memory roof";
}

TEST(SessionLabCuda, ABlockTheDeviceCannotRunIsTheRunsErrorAndTheAppGoesOn) {
  KS_REQUIRE_GPU();
  Session s(gpu_options());
  s.open_sample();
  s.select_kernel("vecadd");
  s.set_backend(Backend::Cuda);
  s.set_variant("naive");
  s.lab().set_size_text("2^16");
  s.lab().set_block(
      BlockShape{4096, 1});  // no device runs 4096 threads per block: refused when the run starts
  EXPECT_THROW(s.run_now(), Error);
  ASSERT_TRUE(s.lab().last_error());
  s.lab().set_block(BlockShape{256, 1});
  s.run_now();
  ASSERT_TRUE(s.lab().last_run());
  EXPECT_FALSE(s.lab().last_error());
  EXPECT_TRUE(s.lab().last_run()->report.check.agrees);
}

TEST(SessionLabCuda, KmeansOnCudaShowsItsImageAndMatchesTheCpu) {
  KS_REQUIRE_GPU();
  Session s(gpu_options());
  s.open_sample();
  s.select_kernel("kmeans");
  s.set_backend(Backend::Cuda);
  s.set_param("k", "6");
  s.run_now();
  ASSERT_NE(s.lab().result_image(), nullptr);
  EXPECT_EQ(s.lab().result_image()->width(), s.input()->width());
  EXPECT_TRUE(s.lab().last_run()->report.check.agrees) << s.lab().last_run()->report.check.detail;
}

}  // namespace
}  // namespace ks::app
