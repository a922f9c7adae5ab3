// The lab framework's pure parts: size syntax and limits, chunk boundaries, launch arithmetic, the memory a
// run needs, the comparisons behind LabCheck, and host mode names. Expected values are worked out by hand here.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "lab/host_mode.hpp"
#include "lab/lab_check.hpp"
#include "lab/lab_memory.hpp"
#include "lab/lab_report.hpp"
#include "lab/lab_size.hpp"

namespace ks::lab {
namespace {

ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::Internal;  // "no error" reads as a failure in the EXPECT below
}

TEST(LabSize, CountsTakeDecimalsPowersSuffixesAndOffsets) {
  EXPECT_EQ(parse_count("1048576"), 1048576);
  EXPECT_EQ(parse_count("2^20"), 1 << 20);
  EXPECT_EQ(parse_count("2^20+3"), (1 << 20) + 3);
  EXPECT_EQ(parse_count("2^20-1"), (1 << 20) - 1);
  EXPECT_EQ(parse_count("1M"), 1 << 20);
  EXPECT_EQ(parse_count("3K"), 3 * 1024);
  EXPECT_EQ(parse_count("1G"), 1 << 30);
  EXPECT_EQ(parse_count("2^0"), 1);
  EXPECT_EQ(parse_count("10^3"), 1000);
  for (const char* bad : {"", "0", "-5", "2^", "^3", "2^63", "1T", "1.5", "2^20+", "1 024", "x", "2^20+-1", "1-2"})
    EXPECT_EQ(kind_of([&] { parse_count(bad); }), ErrorKind::Usage) << bad;
}

TEST(LabSize, FormsMustMatchTheKernel) {
  EXPECT_EQ(parse_lab_size("7x13x5", SizeForm::Matmul, "matmul"), LabSize::matmul(7, 13, 5));
  EXPECT_EQ(parse_lab_size("2^10x768", SizeForm::Grid, "integrate2d"), LabSize::grid(1024, 768));
  EXPECT_EQ(parse_lab_size("1M", SizeForm::Elements, "vecadd").n(), 1 << 20);
  EXPECT_EQ(LabSize::matmul(7, 13, 5).elements(), 7 * 13 * 5);
  EXPECT_EQ(to_string(LabSize::matmul(7, 13, 5)), "7x13x5");
  EXPECT_EQ(short_text(1 << 28), "2^28");
  EXPECT_EQ(short_text(1000), "1000");
  EXPECT_EQ(kind_of([] { parse_lab_size("64", SizeForm::Matmul, "matmul"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([] { parse_lab_size("64x64", SizeForm::Elements, "vecadd"); }), ErrorKind::Usage);
  EXPECT_EQ(kind_of([] { parse_lab_size("64", SizeForm::Image, "kmeans"); }), ErrorKind::Usage);
  SizeLimits limits;
  limits.max = {8192, 8192, 8192};
  EXPECT_NO_THROW(check_size(LabSize::matmul(1, 8192, 1), SizeForm::Matmul, limits, "matmul"));
  try {
    check_size(LabSize::matmul(1, 8193, 1), SizeForm::Matmul, limits, "matmul");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.full_message().find("N = 8193 is out of range"), std::string::npos) << e.full_message();
    EXPECT_NE(e.full_message().find("from 1 to 2^13 (8192)"), std::string::npos) << e.full_message();
  }
  limits.max_elements = 100;
  EXPECT_EQ(kind_of([&] { check_size(LabSize::matmul(5, 5, 5), SizeForm::Matmul, limits, "m"); }), ErrorKind::Usage);
}

TEST(LabChunks, CoverTheElementsWithSizesThatDifferByOneAtMost) {
  for (std::int64_t n : {std::int64_t(7), std::int64_t((1 << 20) + 3), std::int64_t(1) << 30})
    for (int chunks : {1, 3, 7, 16}) {
      if (chunks > n) continue;
      EXPECT_EQ(chunk_begin(n, chunks, 0), 0);
      EXPECT_EQ(chunk_begin(n, chunks, chunks), n);
      std::int64_t smallest = n, largest = 0;
      for (int c = 0; c < chunks; ++c) {
        const std::int64_t len = chunk_begin(n, chunks, c + 1) - chunk_begin(n, chunks, c);
        smallest = std::min(smallest, len);
        largest = std::max(largest, len);
      }
      EXPECT_LE(largest - smallest, 1) << n << " / " << chunks;
    }
}

TEST(LabLaunch, ArithmeticOfGridsAndWaves) {
  LaunchGeometry g;
  g.block = {256, 1};
  g.occupancy.active_blocks_per_sm = 8;
  g.occupancy.kernel_name = "k";
  g.grid_x = 5;  // ceil(1025 / 256)
  g.work_items = 1025;
  LaunchArithmetic a = launch_arithmetic(g, 132);
  EXPECT_EQ(a.blocks, 5);
  EXPECT_EQ(a.total_threads, 1280);
  EXPECT_EQ(a.idle_threads, 255);
  EXPECT_EQ(a.slots, 1056);
  EXPECT_EQ(a.full_waves, 0);
  EXPECT_DOUBLE_EQ(a.tail_wave_occupancy, 5.0 / 1056);
  g.grid_x = 2112;  // exactly two waves
  g.work_items = 2112 * 256;
  a = launch_arithmetic(g, 132);
  EXPECT_DOUBLE_EQ(a.waves, 2.0);
  EXPECT_EQ(a.full_waves, 2);
  EXPECT_DOUBLE_EQ(a.tail_wave_occupancy, 1.0);
  EXPECT_EQ(a.idle_threads, 0);
  g.grid_x = 1056;  // a grid-stride loop: four items per thread
  g.work_items = 4 * 1056 * 256;
  a = launch_arithmetic(g, 132);
  EXPECT_DOUBLE_EQ(a.items_per_thread, 4.0);
  EXPECT_EQ(a.idle_threads, 0);
}

std::vector<ArraySpec> vecadd_arrays(std::int64_t n) {
  return {{"a", DType::F32, {n}, ArrayRole::Input, ArraySplit::Sliced, ""},
          {"b", DType::F32, {n}, ArrayRole::Input, ArraySplit::Sliced, ""},
          {"c", DType::F32, {n}, ArrayRole::Output, ArraySplit::Sliced, ""}};
}

TEST(LabMemoryNeed, CountsEveryCopyOfTheArrays) {
  const std::uint64_t mb4 = 4u << 20, reserve = 64u << 20;
  const auto arrays = vecadd_arrays(1 << 20);
  // Pinned: inputs as filled (8 MB), the reference's output (4), pinned copies of all three (12); on the device
  // all three plus the reserve.
  MemoryNeed m = memory_need(arrays, Backend::Cuda, HostMode::Pinned, true, 1, 1, LabSize::elements(1 << 20), nullptr);
  EXPECT_EQ(m.host_bytes, 2 * mb4 + mb4 + 3 * mb4);
  EXPECT_EQ(m.device_bytes, 3 * mb4 + reserve);
  // Pageable uploads from the filled inputs: only the output gets host memory of its own.
  m = memory_need(arrays, Backend::Cuda, HostMode::Pageable, true, 1, 1, LabSize::elements(1 << 20), nullptr);
  EXPECT_EQ(m.host_bytes, 2 * mb4 + mb4 + mb4);
  // Mapped: nothing on the device but the reserve. Streams keep the serial run's output to compare.
  m = memory_need(arrays, Backend::Cuda, HostMode::Mapped, false, 1, 1, LabSize::elements(1 << 20), nullptr);
  EXPECT_EQ(m.device_bytes, reserve);
  m = memory_need(arrays, Backend::Cuda, HostMode::Pinned, false, 4, 16, LabSize::elements(1 << 20), nullptr);
  EXPECT_EQ(m.host_bytes, 2 * mb4 + 3 * mb4 + mb4);
  // The CPU backend: inputs and outputs, and no reference for the "cpu" variant itself.
  m = memory_need(arrays, Backend::Cpu, HostMode::Pageable, false, 1, 1, LabSize::elements(1 << 20), nullptr);
  EXPECT_EQ(m.host_bytes, 3 * mb4);
  EXPECT_EQ(m.device_bytes, 0u);
  EXPECT_NE(m.host_detail.find("inputs a, b"), std::string::npos) << m.host_detail;
}

TEST(LabMemoryNeed, MoreThanIsFreeIsRefusedWithTheFigures) {
  const std::string what = "vecadd n 1073741824";
  EXPECT_NO_THROW(require_memory(what, 12'900'000'000, 13'000'000'000, "host", "arrays", "", "hint"));
  EXPECT_NO_THROW(require_memory(what, 12'900'000'000, std::nullopt, "host", "arrays", "", "hint"));
  try {
    require_memory(what, 12'900'000'000, 8'050'000'000, "device", "arrays a, b, c 12.9 GB", " on H100",
                   "use a smaller --size");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_EQ(e.full_message(),
              "vecadd n 1073741824 needs 12.9 GB of device memory (arrays a, b, c 12.9 GB), 8.05 GB is free on H100. "
              "use a smaller --size");
  }
}

TEST(LabCompare, RelativeExactAndBounded) {
  ThreadPool pool(2);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> e = {1, 2, 0, nan, -4}, a = e;
  LabCheck c = compare_relative(e, a, 1e-5, "values", pool);
  EXPECT_TRUE(c.checked);
  EXPECT_TRUE(c.agrees) << c.detail;
  EXPECT_EQ(c.max_rel_error, 0.0);
  a[1] = 2.00001f;  // 5e-6 relative: within
  EXPECT_TRUE(compare_relative(e, a, 1e-5, "values", pool).agrees);
  a[4] = -4.001f;  // 2.5e-4 relative
  c = compare_relative(e, a, 1e-5, "values", pool);
  EXPECT_FALSE(c.agrees);
  EXPECT_NEAR(c.max_rel_error, 0.001 / 4, 1e-6);
  EXPECT_NE(c.detail.find("[4]"), std::string::npos) << c.detail;
  a = e;
  a[2] = 1e-30f;  // against an exact 0 any difference is infinitely relative
  EXPECT_FALSE(compare_relative(e, a, 1e-5, "values", pool).agrees);
  a = e;
  a[3] = 1;  // a number where NaN was expected
  EXPECT_FALSE(compare_relative(e, a, 1e-5, "values", pool).agrees);
  EXPECT_FALSE(compare_relative(e, std::vector<float>(4), 1e-5, "values", pool).agrees) << "a length mismatch";

  std::vector<std::uint32_t> k = {5, 6, 7, 8}, l = {5, 6, 9, 10};
  c = compare_exact(k, l, "keys", pool);
  EXPECT_FALSE(c.agrees);
  EXPECT_NE(c.detail.find("2 of 4 keys differ; first at [2]: 7 expected, 9 produced"), std::string::npos) << c.detail;
  EXPECT_TRUE(compare_exact(k, k, "keys", pool).agrees);

  EXPECT_TRUE(compare_within(10.0, 10.5, 0.5, "sum").agrees);
  EXPECT_FALSE(compare_within(10.0, 10.6, 0.5, "sum").agrees);
  EXPECT_FALSE(compare_within(10.0, std::nan(""), 0.5, "sum").agrees);
  EXPECT_FALSE(merge_checks(compare_within(1, 1, 0, "x"), compare_within(1, 2, 0, "y")).agrees);
}

TEST(LabHostMode, NamesRoundTripAndUnknownOnesAreRefused) {
  for (HostMode m : {HostMode::Pageable, HostMode::Pinned, HostMode::Mapped, HostMode::Managed,
                     HostMode::ManagedPrefetch})
    EXPECT_EQ(host_mode_from_string(to_string(m)), m);
  EXPECT_EQ(kind_of([] { host_mode_from_string("paged"); }), ErrorKind::Usage);
  EXPECT_TRUE(has_copies(HostMode::Pinned));
  EXPECT_FALSE(has_copies(HostMode::Mapped));
  EXPECT_FALSE(has_copies(HostMode::Managed));
}

}  // namespace
}  // namespace ks::lab
