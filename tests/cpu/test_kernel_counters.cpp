// Counters without a GPU (issue 25): how the ranges of a variant's several kernels combine, the driver's
// permission setting read from /proc/driver/nvidia/params, and the report's "counters" object and lines, on
// counter values recorded by Nsight Compute on an H100 (the naive 3x3 box, u8 8192x8192, 2026-11-27).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/kernel_counters.hpp"
#include "report/counters_report.hpp"
#include "report/why_output.hpp"

namespace ks::test {
namespace {

// Values in counter_metric_names()' order, for a range of `duration_ns`.
std::vector<double> range(double duration_ns, double dram_read, double dram_write, double dram_pct, double sm_pct,
                          double occupancy_pct, double l1_hit, double l2_hit, double l1_sectors, double l2_sectors,
                          double load_sectors, double load_requests, double thread_inst, double warp_inst) {
  return {duration_ns, dram_read,     dram_write, dram_pct, sm_pct, occupancy_pct, l1_hit,      l2_hit,   l1_sectors,
          l2_sectors,  load_sectors,  load_requests, 2097152, 2097152, 0,         0,             0,           0,
          thread_inst, warp_inst};
}

TEST(KernelCounters, NamesOneMetricPerValue) {
  const auto names = counter_metric_names();
  ASSERT_EQ(names.size(), 20u);
  EXPECT_STREQ(names[0], "gpu__time_duration.sum");
  EXPECT_STREQ(names[3], "dram__throughput.avg.pct_of_peak_sustained_elapsed");
}

TEST(KernelCounters, OneRangeIsTakenAsItIs) {
  // Nsight Compute's figures for the naive box (u8, 8192x8192, 32x8 block) on an H100 SXM.
  const KernelCounters c = combine_ranges(
      {range(996352, 67158272, 55298816, 3.67, 91.23, 86.77, 81.11, 77.95, 1e6, 1e6, 50282496, 37748736, 31.93e6,
             1e6)},
      "naive_window_kernel");
  EXPECT_EQ(c.kernel_name, "naive_window_kernel");
  EXPECT_NEAR(c.duration_ms, 0.996352, 1e-9);
  EXPECT_DOUBLE_EQ(c.dram_bytes(), 67158272.0 + 55298816.0);
  EXPECT_DOUBLE_EQ(c.dram_throughput_pct, 3.67);
  EXPECT_DOUBLE_EQ(c.achieved_occupancy_pct, 86.77);
  EXPECT_NEAR(c.load_sectors_per_request(), 50282496.0 / 37748736.0, 1e-12);
  EXPECT_NEAR(c.warp_execution_efficiency_pct, 31.93 / 32 * 100, 1e-9);
  EXPECT_DOUBLE_EQ(c.bank_conflicts_per_shared_instruction(), 0.0) << "no shared instruction: no conflict";
}

TEST(KernelCounters, RangesCombineByDurationSectorsAndInstructions) {
  // A separable filter's two passes: 1 ms at 80% DRAM, 3 ms at 40%.
  const KernelCounters c = combine_ranges(
      {range(1e6, 100, 50, 80, 10, 90, 50, 20, 100, 300, 10, 5, 32 * 1000, 1000),
       range(3e6, 300, 150, 40, 30, 50, 100, 60, 300, 100, 30, 5, 16 * 1000, 1000)},
      "rows + columns");
  EXPECT_DOUBLE_EQ(c.duration_ms, 4.0);
  EXPECT_DOUBLE_EQ(c.dram_read_bytes, 400);
  EXPECT_DOUBLE_EQ(c.dram_write_bytes, 200);
  EXPECT_DOUBLE_EQ(c.dram_throughput_pct, (80.0 * 1 + 40.0 * 3) / 4);
  EXPECT_DOUBLE_EQ(c.sm_throughput_pct, (10.0 * 1 + 30.0 * 3) / 4);
  EXPECT_DOUBLE_EQ(c.achieved_occupancy_pct, (90.0 * 1 + 50.0 * 3) / 4);
  EXPECT_DOUBLE_EQ(c.l1_hit_rate_pct, (50.0 * 100 + 100.0 * 300) / 400);  // over each pass's L1 sectors
  EXPECT_DOUBLE_EQ(c.l2_hit_rate_pct, (20.0 * 300 + 60.0 * 100) / 400);   // over its L2 sectors
  EXPECT_DOUBLE_EQ(c.load_sectors_per_request(), 40.0 / 10.0);
  EXPECT_DOUBLE_EQ(c.warp_execution_efficiency_pct, (32.0 + 16.0) * 1000 / 2000 / 32 * 100);
}

TEST(KernelCounters, ARangeOfTheWrongLengthIsABug) {
  EXPECT_THROW(combine_ranges({{1.0, 2.0}}, "k"), Error);
}

TEST(KernelCounters, ReadsTheDriversProfilingPermission) {
  EXPECT_TRUE(profiling_restricted_to_admins("ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 1\nEnableMSI: 1\n"));
  EXPECT_FALSE(profiling_restricted_to_admins("RmProfilingAdminOnly: 0\n"));
  EXPECT_FALSE(profiling_restricted_to_admins("EnableMSI: 1\n")) << "an older driver without the setting";
  EXPECT_FALSE(profiling_restricted_to_admins(""));
  const std::string message = counters_forbidden_message();
  EXPECT_NE(message.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << "the exact fix";
  EXPECT_NE(message.find("ERR_NVGPUCTRPERM"), std::string::npos);
}

TEST(CountersReport, JsonAndLinesCarryTheFiguresAndTheMeasuredIntensity) {
  KernelCounters c = combine_ranges(
      {range(996352, 67158272, 55298816, 3.67, 91.23, 86.77, 81.11, 77.95, 1e6, 1e6, 50282496, 37748736, 31.93e6,
             1e6)},
      "naive_window_kernel");
  EXPECT_TRUE(report::counters_json(std::nullopt, 1).is_null());
  const double operations = 8.0 * 8192 * 8192;  // a 3x3 box: 8 adds per pixel
  const auto j = report::counters_json(c, operations);
  EXPECT_EQ(j["kernel_name"], "naive_window_kernel");
  EXPECT_DOUBLE_EQ(j["dram"]["bytes"].get<double>(), 67158272.0 + 55298816.0);
  EXPECT_NEAR(j["dram"]["intensity"].get<double>(), operations / (67158272.0 + 55298816.0), 1e-9);
  EXPECT_NEAR(j["global_loads"]["sectors_per_request"].get<double>(), 1.332, 0.001);
  EXPECT_TRUE(report::counters_json(c, 0)["dram"]["intensity"].is_null()) << "no operations, no intensity";
  OccupancyReport occupancy;
  occupancy.occupancy = 1.0;
  const std::string text = report::counters_text(c, occupancy, operations);
  EXPECT_NE(text.find("achieved occupancy 86.8% (theoretical 100.0%)"), std::string::npos) << text;
  EXPECT_NE(text.find("1.33 sectors per load request"), std::string::npos) << text;
}

// A range of the one-pass set: the naive box's values where the set reads, NaN where it does not, as the
// profiler hands them to combine_ranges.
std::vector<double> quick_range() {
  const std::vector<double> all = range(996352, 67158272, 55298816, 3.67, 91.23, 86.77, 81.11, 77.95, 1e6, 1e6,
                                        50282496, 37748736, 31.93e6, 1e6);
  std::vector<double> v(all.size(), std::numeric_limits<double>::quiet_NaN());
  for (const std::size_t i : counter_metric_positions(CounterSet::Quick)) v[i] = all[i];
  return v;
}

TEST(CounterSet, QuickIsASubsetWithoutTheL1SectorCountsAndAllIsEveryMetric) {
  const auto all = counter_metric_positions(CounterSet::All);
  ASSERT_EQ(all.size(), counter_metric_names().size());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], i);
  const auto quick = counter_metric_positions(CounterSet::Quick);
  ASSERT_FALSE(quick.empty());
  EXPECT_LT(quick.size(), all.size());
  EXPECT_TRUE(std::is_sorted(quick.begin(), quick.end()));
  for (const std::size_t i : quick) {
    const std::string name = counter_metric_names()[i];
    // Measured on an H100: each L1 sector or request count takes a pass of its own beside the others, and the
    // SM throughput eight (docs/PERF.md); the one-pass set holds none of them.
    EXPECT_EQ(name.find("l1tex__"), std::string::npos) << name;
    EXPECT_EQ(name.find("sm__throughput"), std::string::npos) << name;
  }
  EXPECT_EQ(parse_counter_set("quick"), CounterSet::Quick);
  EXPECT_EQ(parse_counter_set("all"), CounterSet::All);
  EXPECT_THROW(parse_counter_set("most"), Error);
  EXPECT_STREQ(to_string(CounterSet::Quick), "quick");
}

TEST(CounterSet, AQuickReadingKeepsWhatItReadAndLeavesTheRestUnread) {
  KernelCounters c = combine_ranges({quick_range(), quick_range()}, "naive_window_kernel");
  c.set = CounterSet::Quick;
  EXPECT_DOUBLE_EQ(c.dram_bytes(), 2 * (67158272.0 + 55298816.0));
  EXPECT_DOUBLE_EQ(c.dram_throughput_pct, 3.67);
  EXPECT_DOUBLE_EQ(c.achieved_occupancy_pct, 86.77);
  EXPECT_NEAR(c.warp_execution_efficiency_pct, 31.93 / 32 * 100, 1e-9);
  EXPECT_TRUE(std::isnan(c.sm_throughput_pct));
  EXPECT_TRUE(std::isnan(c.l1_hit_rate_pct));
  EXPECT_TRUE(std::isnan(c.l2_hit_rate_pct));
  EXPECT_TRUE(std::isnan(c.load_sectors_per_request())) << "unread is not 'no requests'";
  EXPECT_TRUE(std::isnan(c.bank_conflicts_per_shared_instruction()));

  const auto j = report::counters_json(c, 8.0 * 8192 * 8192);
  EXPECT_EQ(j["set"], "quick");
  EXPECT_TRUE(j["sm_throughput_pct"].is_null());
  EXPECT_TRUE(j["global_loads"]["sectors_per_request"].is_null());
  EXPECT_TRUE(j["shared"]["conflicts_per_instruction"].is_null());
  EXPECT_DOUBLE_EQ(j["achieved_occupancy_pct"].get<double>(), 86.77);

  const std::string text = report::counters_text(c, std::nullopt, 0);
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  EXPECT_NE(text.find("not read (--counters=quick)"), std::string::npos) << text;
  const std::string why = report::why_paragraph({}, std::optional<KernelCounters>(c));
  EXPECT_NE(why.find("coalescing and bank conflicts were not measured"), std::string::npos) << why;
  c.set = CounterSet::All;
  EXPECT_EQ(report::why_paragraph({}, std::optional<KernelCounters>(c)).find("not measured"), std::string::npos);
}

}  // namespace
}  // namespace ks::test
