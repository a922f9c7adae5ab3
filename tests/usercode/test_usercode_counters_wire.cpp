// The worker protocol's counters (no GPU needed): a plan asks for them with one flag, which an older client's
// plan lacks (then none are read); a reply carries every KernelCounters field or why there are none, and a reply
// without the field (an older worker, or counters not asked for) has none.
#include <gtest/gtest.h>

#include "usercode/run/launch_plan.hpp"

namespace ks::usercode {
namespace {

TEST(UsercodeCountersWire, ThePlanAsksWithOneFlagThatDefaultsToOff) {
  LaunchPlan plan;
  plan.entry = "_Z4copyv";
  plan.counters = true;
  nlohmann::json j = to_json(plan);
  EXPECT_TRUE(launch_plan_from_json(j).counters);
  j.erase("counters");
  EXPECT_FALSE(launch_plan_from_json(j).counters);
}

TEST(UsercodeCountersWire, EveryCounterComesBackAsSent) {
  WorkerReply reply;
  reply.kernel_ms = {1.5, 1.25};
  KernelCounters c;
  c.kernel_name = "_Z10copy_imagev";
  c.duration_ms = 0.987;
  c.dram_read_bytes = 134217728;
  c.dram_write_bytes = 134086656;
  c.dram_throughput_pct = 88.25;
  c.sm_throughput_pct = 12.5;
  c.achieved_occupancy_pct = 91.75;
  c.l1_hit_rate_pct = 3.5;
  c.l2_hit_rate_pct = 49.125;
  c.global_load_sectors = 4194305;
  c.global_load_requests = 1048576;
  c.global_store_sectors = 4194304;
  c.global_store_requests = 1048577;
  c.shared_load_instructions = 17;
  c.shared_store_instructions = 19;
  c.shared_load_bank_conflicts = 23;
  c.shared_store_bank_conflicts = 29;
  c.warp_execution_efficiency_pct = 99.5;
  c.passes = 28;
  c.replay_ms = 243.5;
  c.read_ms = 459.25;
  reply.counters = CounterReading{c, ""};
  const WorkerReply back = worker_reply_from_json(nlohmann::json::parse(to_json(reply).dump()));
  ASSERT_TRUE(back.counters);
  ASSERT_TRUE(back.counters->counters);
  const KernelCounters& b = *back.counters->counters;
  EXPECT_EQ(b.kernel_name, c.kernel_name);
  EXPECT_EQ(b.duration_ms, c.duration_ms);
  EXPECT_EQ(b.dram_read_bytes, c.dram_read_bytes);
  EXPECT_EQ(b.dram_write_bytes, c.dram_write_bytes);
  EXPECT_EQ(b.dram_throughput_pct, c.dram_throughput_pct);
  EXPECT_EQ(b.sm_throughput_pct, c.sm_throughput_pct);
  EXPECT_EQ(b.achieved_occupancy_pct, c.achieved_occupancy_pct);
  EXPECT_EQ(b.l1_hit_rate_pct, c.l1_hit_rate_pct);
  EXPECT_EQ(b.l2_hit_rate_pct, c.l2_hit_rate_pct);
  EXPECT_EQ(b.global_load_sectors, c.global_load_sectors);
  EXPECT_EQ(b.global_load_requests, c.global_load_requests);
  EXPECT_EQ(b.global_store_sectors, c.global_store_sectors);
  EXPECT_EQ(b.global_store_requests, c.global_store_requests);
  EXPECT_EQ(b.shared_load_instructions, c.shared_load_instructions);
  EXPECT_EQ(b.shared_store_instructions, c.shared_store_instructions);
  EXPECT_EQ(b.shared_load_bank_conflicts, c.shared_load_bank_conflicts);
  EXPECT_EQ(b.shared_store_bank_conflicts, c.shared_store_bank_conflicts);
  EXPECT_EQ(b.warp_execution_efficiency_pct, c.warp_execution_efficiency_pct);
  EXPECT_EQ(b.passes, c.passes);
  EXPECT_EQ(b.replay_ms, c.replay_ms);
  EXPECT_EQ(b.read_ms, c.read_ms);
  EXPECT_EQ(back.kernel_ms, reply.kernel_ms);
}

TEST(UsercodeCountersWire, WhyThereAreNoneComesBackAndAReplyWithoutThemHasNone) {
  WorkerReply reply;
  reply.counters = CounterReading{std::nullopt, "another profiler (Nsight Compute) holds the counters"};
  const WorkerReply back = worker_reply_from_json(to_json(reply));
  ASSERT_TRUE(back.counters);
  EXPECT_FALSE(back.counters->counters);
  EXPECT_EQ(back.counters->unavailable, reply.counters->unavailable);

  nlohmann::json j = to_json(WorkerReply{});
  EXPECT_FALSE(j.contains("counters"));
  EXPECT_FALSE(worker_reply_from_json(j).counters);
}

}  // namespace
}  // namespace ks::usercode
