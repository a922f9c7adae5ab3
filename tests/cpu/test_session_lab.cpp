// The Lab document through the session, on the CPU backend: a run gives the library's report (checked against
// the CPU reference), bad values are refused with the request kept, the size sweep measures one point per
// size and variant and stops when cancelled, kmeans shows its quantised image, exports carry the report.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/error.hpp"
#include "cpu/session_support.hpp"
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"
#include "support/test_support.hpp"

namespace ks::app {
namespace {

using namespace std::chrono_literals;
using session_test::cpu_options;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(SessionLab, LabKernelsAreOfferedAndSelectable) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("vecadd");
  EXPECT_TRUE(s.in_lab());
  EXPECT_TRUE(s.lab().active());
  EXPECT_EQ(s.effective_variant(), "cpu");
  EXPECT_FALSE(s.lab().last_run());
  EXPECT_FALSE(s.has_output());
  // Kernels of arrays leave the viewport empty.
  const ui::DisplayFrame f = s.display_frame();
  EXPECT_EQ(f.input, nullptr);
  EXPECT_EQ(f.output, nullptr);
  // A lab run starts from Run, not from a change.
  s.request_run();
  s.wait_idle();
  EXPECT_FALSE(s.lab().last_run());
}

TEST(SessionLab, ARunGivesAReportThatAgreesWithTheCpu) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("matmul");
  s.lab().set_size(lab::LabSize::matmul(64, 48, 32));
  // A CPU variant other than the reference is checked against it (openblas where the build has it).
  try {
    s.set_variant("openblas");
  } catch (const Error& e) {
    GTEST_SKIP() << "no second CPU variant of matmul in this build: " << e.what();
  }
  s.run_now();
  ASSERT_TRUE(s.lab().last_run());
  const lab::LabReport& r = s.lab().last_run()->report;
  EXPECT_EQ(r.kernel, "matmul");
  EXPECT_EQ(r.variant, "openblas");
  EXPECT_EQ(r.size, lab::LabSize::matmul(64, 48, 32));
  EXPECT_EQ(r.kernel_time.count, 2) << "the session's repeat";
  EXPECT_TRUE(r.check.checked);
  EXPECT_TRUE(r.check.agrees) << r.check.detail;
  EXPECT_GT(r.gflops, 0);
  EXPECT_TRUE(s.lab().last_run_is_current());
  EXPECT_EQ(s.lab().runs().size(), 1u);
  EXPECT_FALSE(s.lab().last_error());
  // A change makes the shown run stale until the next Run; going back finds the kept report of that request.
  EXPECT_EQ(s.lab().run_for_request(), &s.lab().runs().back());
  s.lab().set_size(lab::LabSize::matmul(32, 32, 32));
  EXPECT_FALSE(s.lab().last_run_is_current());
  EXPECT_EQ(s.lab().run_for_request(), nullptr);
  s.run_now();
  EXPECT_EQ(s.lab().runs().size(), 2u);
  s.lab().set_size(lab::LabSize::matmul(64, 48, 32));
  ASSERT_NE(s.lab().run_for_request(), nullptr);
  EXPECT_EQ(s.lab().run_for_request()->report.size, lab::LabSize::matmul(64, 48, 32));
  EXPECT_EQ(s.lab().run_for_request()->number, 1u);
}

TEST(SessionLab, TheReferenceVariantSaysItIsTheReference) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("vecadd");
  s.lab().set_size_text("2^12+3");
  s.run_now();
  ASSERT_TRUE(s.lab().last_run());
  const lab::LabReport& r = s.lab().last_run()->report;
  EXPECT_EQ(r.size, lab::LabSize::elements(4099));
  EXPECT_FALSE(r.check.checked);
  EXPECT_NE(r.check.detail.find("reference"), std::string::npos) << r.check.detail;
  EXPECT_GT(r.kernel_time.median_ms, 0);
}

TEST(SessionLab, BadValuesAreRefusedAndTheRequestKept) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("saxpy");
  s.lab().set_size(lab::LabSize::elements(1 << 20));
  const std::string before =
      lab_request_key(s.lab().request(), s.lab().effective_variant(), s.lab().effective_size());
  EXPECT_THROW(s.lab().set_size(lab::LabSize::elements(std::int64_t(1) << 31)), Error);  // beyond 2^30
  EXPECT_THROW(s.lab().set_size_text("1024x1024"), Error);                               // not the form of n
  EXPECT_THROW(s.lab().set_size_text("lots"), Error);
  EXPECT_THROW(s.set_param("alpha", "two"), Error);
  EXPECT_THROW(s.lab().set_host(lab::HostMode::Pinned), Error);  // CUDA only
  EXPECT_THROW(s.lab().set_streams(4), Error);                   // CUDA only
  EXPECT_THROW(s.lab().set_block(BlockShape{256, 1}), Error);    // CUDA only
  EXPECT_THROW(s.set_variant("nonesuch"), Error);
  EXPECT_THROW(s.set_backend(Backend::Cuda), Error);  // switched off for the tests
  EXPECT_EQ(lab_request_key(s.lab().request(), s.lab().effective_variant(), s.lab().effective_size()),
            before);
  EXPECT_EQ(s.lab().request().size, lab::LabSize::elements(1 << 20));
  EXPECT_EQ(s.lab().request().streams, 1);
  EXPECT_EQ(s.lab().request().host, lab::HostMode::Pageable);

  // The whole request is checked: integrate2d refuses x1 <= x0, and 1/x over a range holding 0.
  s.select_kernel("integrate2d");
  EXPECT_THROW(s.set_param("x1", "-5"), Error);
  EXPECT_THROW(s.set_param("integrand", "invx"), Error) << "1/x over x in 0..pi";
  EXPECT_EQ(s.params().get_choice("integrand"), s.kernel().default_params().get_choice("integrand"));
  s.set_param("accumulate", "f64");
  EXPECT_EQ(s.lab().request().params.get_choice("accumulate"), "f64");
  EXPECT_EQ(s.params().get_choice("accumulate"), "f64");
}

TEST(SessionLab, TheSweepMeasuresEverySizeAndVariant) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("vecadd");
  s.lab().set_size(lab::LabSize::elements(1 << 14));
  s.lab().start_sweep();
  EXPECT_THROW(s.lab().start_sweep(), Error) << "one sweep at a time";
  s.wait_idle();
  ASSERT_TRUE(s.lab().sweep());
  const LabSweep& sweep = *s.lab().sweep();
  EXPECT_FALSE(sweep.running);
  EXPECT_TRUE(sweep.complete);
  ASSERT_EQ(sweep.variants, std::vector<std::string>{"cpu"});
  ASSERT_EQ(sweep.sizes.size(), 5u);  // 2^10 .. 2^14
  EXPECT_EQ(sweep.sizes.front(), lab::LabSize::elements(1 << 10));
  EXPECT_EQ(sweep.sizes.back(), lab::LabSize::elements(1 << 14));
  ASSERT_EQ(sweep.points.size(), 5u);
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    EXPECT_EQ(sweep.points[i].size, sweep.sizes[i]);
    EXPECT_GT(sweep.points[i].kernel_ms, 0);
  }
  EXPECT_TRUE(sweep.failures.empty());
}

TEST(SessionLab, SweepSizesHalveEverySide) {
  const lab::LabInfo& matmul = lab::find_lab_kernel("matmul").info();
  const auto sizes = lab_sweep_sizes(matmul, lab::LabSize::matmul(128, 64, 256));
  ASSERT_EQ(sizes.size(), 3u);  // 32x16x64, 64x32x128, 128x64x256 (halving again would give a side of 8)
  EXPECT_EQ(sizes.front(), lab::LabSize::matmul(32, 16, 64));
  EXPECT_THROW(lab_sweep_sizes(lab::find_lab_kernel("kmeans").info(), lab::LabSize::image(64, 64)), Error);
}

TEST(SessionLab, TheSweepStopsWhenCancelledAndKeepsItsPoints) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("matmul");
  s.lab().set_size(lab::LabSize::matmul(1024, 1024, 1024));
  s.lab().start_sweep();
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (s.lab().sweep()->points.empty() && std::chrono::steady_clock::now() < deadline) {
    s.poll();
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_FALSE(s.lab().sweep()->points.empty());
  s.cancel();
  s.wait_idle();
  const LabSweep& sweep = *s.lab().sweep();
  EXPECT_FALSE(sweep.running);
  EXPECT_FALSE(sweep.complete);
  EXPECT_GE(sweep.points.size(), 1u);
  EXPECT_LT(sweep.points.size(), sweep.sizes.size() * sweep.variants.size());
  // A new sweep can start after it.
  s.lab().set_size(lab::LabSize::matmul(32, 32, 32));
  s.lab().start_sweep();
  s.wait_idle();
  EXPECT_TRUE(s.lab().sweep()->complete);
}

TEST(SessionLab, KmeansShowsItsQuantisedImage) {
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("kmeans");
  EXPECT_TRUE(s.lab().takes_image());
  EXPECT_THROW(s.lab().set_size(lab::LabSize::image(10, 10)), Error) << "its size is the image's";
  s.set_param("k", "4");
  s.set_param("iterations", "5");
  s.run_now();
  ASSERT_TRUE(s.has_output());
  const Image* out = s.lab().result_image();
  ASSERT_NE(out, nullptr);
  ASSERT_NE(s.input(), nullptr);
  EXPECT_EQ(out->width(), s.input()->width());
  EXPECT_EQ(out->height(), s.input()->height());
  const ui::DisplayFrame f = s.display_frame();
  EXPECT_EQ(f.output, out);
  EXPECT_EQ(f.input, s.input()) << "the loaded image beside it (split view)";
  EXPECT_EQ(f.output_generation, s.lab().result_generation());
  // The inertia per iteration is in the report, for the plot.
  const auto& series = s.lab().last_run()->report.series;
  ASSERT_FALSE(series.empty());
  EXPECT_EQ(series.front().name, "inertia");
  EXPECT_GE(series.front().values.size(), 1u);

  // Back to a stencil: its own result, no lab image.
  s.select_kernel("box");
  s.run_now();
  EXPECT_FALSE(s.in_lab());
  EXPECT_NE(s.display_frame().output, out);
}

TEST(SessionLab, ExportsWriteTheLabReport) {
  test::TempDir dir;
  Session s(cpu_options());
  s.open_sample();
  s.select_kernel("vecadd");
  EXPECT_THROW(s.export_timings(dir.path() / "none.json"), Error) << "nothing run yet";
  s.lab().set_size(lab::LabSize::elements(1 << 12));
  s.run_now();
  s.lab().start_sweep();
  s.wait_idle();
  s.export_timings(dir.path() / "t.json");
  const auto j = nlohmann::json::parse(read_text(dir.path() / "t.json"));
  EXPECT_EQ(j.at("schema"), "kernelscope.lab/1");
  EXPECT_EQ(j.at("kernel"), "vecadd");
  ASSERT_TRUE(j.contains("size_sweep"));
  EXPECT_EQ(j.at("size_sweep").at("points").size(), 3u);  // 2^10 .. 2^12
  s.export_timings(dir.path() / "t.csv");
  EXPECT_NE(read_text(dir.path() / "t.csv").find("median"), std::string::npos);
  EXPECT_THROW(s.export_timings(dir.path() / "t.txt"), Error);
  EXPECT_THROW(s.export_result(dir.path() / "r.png"), Error) << "vecadd makes no image";

  s.select_kernel("kmeans");
  s.set_param("k", "3");
  s.run_now();
  s.export_result(dir.path() / "q.png");
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "q.png"));
  const auto side = nlohmann::json::parse(read_text(dir.path() / "q.png.json"));
  EXPECT_EQ(side.at("run").at("kernel"), "kmeans");
}

}  // namespace
}  // namespace ks::app
