#include "usercode/run/counters_wire.hpp"

namespace ks::usercode {

namespace {

// Each number of KernelCounters with its name on the wire, in one list for both directions.
template <class Counters, class Visit>
void each_number(Counters& c, Visit&& visit) {
  visit("duration_ms", c.duration_ms);
  visit("dram_read_bytes", c.dram_read_bytes);
  visit("dram_write_bytes", c.dram_write_bytes);
  visit("dram_throughput_pct", c.dram_throughput_pct);
  visit("sm_throughput_pct", c.sm_throughput_pct);
  visit("achieved_occupancy_pct", c.achieved_occupancy_pct);
  visit("l1_hit_rate_pct", c.l1_hit_rate_pct);
  visit("l2_hit_rate_pct", c.l2_hit_rate_pct);
  visit("global_load_sectors", c.global_load_sectors);
  visit("global_load_requests", c.global_load_requests);
  visit("global_store_sectors", c.global_store_sectors);
  visit("global_store_requests", c.global_store_requests);
  visit("shared_load_instructions", c.shared_load_instructions);
  visit("shared_store_instructions", c.shared_store_instructions);
  visit("shared_load_bank_conflicts", c.shared_load_bank_conflicts);
  visit("shared_store_bank_conflicts", c.shared_store_bank_conflicts);
  visit("warp_execution_efficiency_pct", c.warp_execution_efficiency_pct);
  visit("passes", c.passes);
  visit("replay_ms", c.replay_ms);
  visit("read_ms", c.read_ms);
}

}  // namespace

nlohmann::json to_json(const CounterReading& reading) {
  nlohmann::json j = {{"unavailable", reading.unavailable}, {"values", nullptr}};
  if (reading.counters) {
    nlohmann::json values = {{"kernel_name", reading.counters->kernel_name}};
    each_number(*reading.counters, [&](const char* name, const auto& value) { values[name] = value; });
    j["values"] = std::move(values);
  }
  return j;
}

CounterReading counter_reading_from_json(const nlohmann::json& j) {
  CounterReading r;
  r.unavailable = j.at("unavailable").get<std::string>();
  const nlohmann::json& values = j.at("values");
  if (values.is_null()) return r;
  KernelCounters c;
  c.kernel_name = values.at("kernel_name").get<std::string>();
  each_number(c, [&](const char* name, auto& value) { values.at(name).get_to(value); });
  r.counters = std::move(c);
  return r;
}

}  // namespace ks::usercode
