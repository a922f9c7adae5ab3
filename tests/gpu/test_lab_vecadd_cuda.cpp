// vecadd and saxpy on the GPU: every CUDA variant against the CPU reference and against the sums the test
// computes itself, on awkward sizes and blocks; every host memory mode; the chunked --streams path byte for
// byte against the serial one (chunk starts that are not 16-byte aligned included); the timeline; the launch
// arithmetic; and blocks the kernels cannot use.
#include <gtest/gtest.h>

#include "engine/engine.hpp"
#include "lab/lab.hpp"
#include "support/lab_support.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

using test::array_named;
using test::lab_request;

Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

const std::int64_t kSizes[] = {1, 31, 1025, (1 << 20) + 3};
const char* const kVariants[] = {"naive", "gridstride", "vector4"};

// c == a + b element by element, computed here (the inputs are multiples of 2^-23 in -1..1: exact in double).
void expect_sums(const lab::LabResult& r) {
  const auto a = array_named(r, "a").as<float>(), b = array_named(r, "b").as<float>(),
             c = array_named(r, "c").as<float>();
  for (std::size_t i = 0; i < c.size(); ++i)
    ASSERT_EQ(c[i], float(double(a[i]) + double(b[i]))) << "element " << i << " of " << c.size();
}

TEST(LabVecaddCuda, EveryVariantSizeAndBlockAgreesWithTheCpu) {
  KS_REQUIRE_GPU();
  for (const char* v : kVariants)
    for (std::int64_t n : kSizes)
      for (int block : {32, 96, 256, 1024}) {
        SCOPED_TRACE(testing::Message() << v << " n=" << n << " block=" << block);
        auto req = lab_request("vecadd", n, Backend::Cuda, v, {"a", "b", "c"});
        req.block = BlockShape{block, 1};
        const auto r = lab::run_lab(engine(), req);
        EXPECT_TRUE(r.report.check.checked);
        EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
        expect_sums(r);
      }
}

TEST(LabVecaddCuda, SaxpyEveryVariantAgreesWithTheCpuToTheBit) {
  KS_REQUIRE_GPU();
  for (const char* v : kVariants)
    for (std::int64_t n : kSizes) {
      SCOPED_TRACE(testing::Message() << v << " n=" << n);
      auto req = lab_request("saxpy", n, Backend::Cuda, v, {"y"});
      req.params.set("alpha", "-1.75");
      req.repeat = 3;  // y is restored before every launch: repeats must not compound
      const auto gpu = lab::run_lab(engine(), req);
      EXPECT_TRUE(gpu.report.check.agrees) << gpu.report.check.detail;
      EXPECT_EQ(gpu.report.check.max_abs_error, 0.0) << "one fused multiply-add on both sides";
      auto cpu_req = lab_request("saxpy", n, Backend::Cpu, "cpu", {"y"});
      cpu_req.params.set("alpha", "-1.75");
      EXPECT_EQ(array_named(gpu, "y").data, array_named(lab::run_lab(engine(), cpu_req), "y").data);
    }
}

TEST(LabVecaddCuda, EveryHostModeGivesTheSameResult) {
  KS_REQUIRE_GPU();
  for (auto mode : {lab::HostMode::Pageable, lab::HostMode::Pinned, lab::HostMode::Mapped, lab::HostMode::Managed,
                    lab::HostMode::ManagedPrefetch})
    for (const char* kernel : {"vecadd", "saxpy"}) {
      SCOPED_TRACE(testing::Message() << kernel << " " << lab::to_string(mode));
      auto req = lab_request(kernel, (1 << 20) + 3, Backend::Cuda, "vector4", {});
      req.host = mode;
      req.repeat = 2;
      const auto r = lab::run_lab(engine(), req);
      EXPECT_TRUE(r.report.check.agrees) << r.report.check.detail;
      EXPECT_GT(r.report.kernel_time.median_ms, 0);
      if (mode == lab::HostMode::Mapped || mode == lab::HostMode::Managed) {
        EXPECT_EQ(r.report.upload_gbps, 0.0);
        for (const auto& bar : r.report.timeline) {
          if (bar.lane == "upload") {
            EXPECT_EQ(bar.bytes, 0u) << "no copies up in this mode";
          }
        }
      } else {
        EXPECT_GT(r.report.upload_time.median_ms, 0);
        EXPECT_GT(r.report.upload_gbps, 0);
      }
    }
}

TEST(LabVecaddCuda, StreamedChunksGiveTheSerialBytes) {
  KS_REQUIRE_GPU();
  // 7 chunks of 2^20+3 elements: chunk starts at element offsets that are not multiples of 4 (not 16-byte
  // aligned), so vector4 runs its scalar head in the streamed path.
  for (const char* kernel : {"vecadd", "saxpy"})
    for (const char* v : kVariants)
      for (auto mode : {lab::HostMode::Pinned, lab::HostMode::Pageable, lab::HostMode::ManagedPrefetch}) {
        SCOPED_TRACE(testing::Message() << kernel << " " << v << " " << lab::to_string(mode));
        const std::string out = std::string(kernel) == "vecadd" ? "c" : "y";
        auto serial = lab_request(kernel, (1 << 20) + 3, Backend::Cuda, v, {out});
        serial.host = mode;
        auto streamed = serial;
        streamed.streams = 3;
        streamed.chunks = 7;
        streamed.repeat = 2;
        const auto s = lab::run_lab(engine(), serial);
        const auto t = lab::run_lab(engine(), streamed);
        EXPECT_EQ(array_named(s, out.c_str()).data, array_named(t, out.c_str()).data);
        ASSERT_TRUE(t.report.streamed_matches_serial.has_value());
        EXPECT_TRUE(*t.report.streamed_matches_serial);
        EXPECT_TRUE(t.report.check.agrees) << t.report.check.detail;
        // 3 bars (upload, kernel, download) per chunk, each inside the run, in chunk order per lane.
        ASSERT_EQ(t.report.timeline.size(), 3u * 7u);
        ASSERT_EQ(t.report.serial_timeline.size(), 3u);
        double last_end[3] = {0, 0, 0};
        for (const auto& bar : t.report.timeline) {
          EXPECT_LE(0, bar.start_ms);
          EXPECT_LE(bar.start_ms, bar.end_ms);
          EXPECT_LE(bar.end_ms, t.report.end_to_end_time.median_ms + 1e-3) << "the timeline is the median repeat";
          EXPECT_EQ(bar.stream, bar.chunk % 3);
          const int lane = bar.lane == "upload" ? 0 : bar.lane == "kernel" ? 1 : 2;
          EXPECT_GE(bar.start_ms + 1e-3, last_end[lane]) << "lane " << bar.lane << " chunk " << bar.chunk;
          last_end[lane] = bar.end_ms;
        }
        EXPECT_GT(t.report.serial_sum_ms, 0);
        EXPECT_GT(t.report.overlap_ratio, 0);
      }
}

TEST(LabVecaddCuda, LaunchArithmeticOfTheNaiveGrid) {
  KS_REQUIRE_GPU();
  auto req = lab_request("vecadd", 1025, Backend::Cuda, "naive");
  req.block = BlockShape{256, 1};
  const auto r = lab::run_lab(engine(), req);
  ASSERT_TRUE(r.report.launch.has_value());
  const auto& a = *r.report.launch;
  EXPECT_EQ(a.blocks, 5);  // ceil(1025 / 256)
  EXPECT_EQ(a.total_threads, 5 * 256);
  EXPECT_EQ(a.idle_threads, 5 * 256 - 1025);
  EXPECT_EQ(a.sms, engine().cuda().device().sm_count);
  EXPECT_GT(a.blocks_per_sm, 0);
  EXPECT_EQ(a.slots, std::int64_t(a.blocks_per_sm) * a.sms);
  EXPECT_EQ(a.full_waves, 0);
  EXPECT_DOUBLE_EQ(a.tail_wave_occupancy, 5.0 / double(a.slots));
  // Grid-stride: a grid sized to the device, each thread several elements.
  auto gs = lab_request("vecadd", std::int64_t(1) << 24, Backend::Cuda, "gridstride");
  const auto g = lab::run_lab(engine(), gs).report.launch;
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->blocks, g->slots) << "one full wave";
  EXPECT_GT(g->items_per_thread, 1.0);
}

TEST(LabVecaddCuda, BlocksTheKernelsCannotUseAreUsageErrors) {
  KS_REQUIRE_GPU();
  for (BlockShape b : {BlockShape{2048, 1}, BlockShape{16, 16}}) {
    auto req = lab_request("vecadd", 1000, Backend::Cuda, "naive");
    req.block = b;
    try {
      lab::run_lab(engine(), req);
      ADD_FAILURE() << to_string(b) << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << e.full_message();
    }
  }
}

}  // namespace
}  // namespace ks
