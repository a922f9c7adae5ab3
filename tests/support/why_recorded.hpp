#pragma once
// Reports recorded on a GPU (tests/fixtures/why/*.json: `kernelscope-cli run --counters --json` on an H100, kept
// to what the explainer reads) read back as the RunReport the CLI had, so that the explainer's tests run without
// a GPU on real counter sets. Only the fields the fixtures keep are read; the rest stay empty.
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "core/backend.hpp"
#include "core/image.hpp"
#include "engine/engine.hpp"

namespace ks::why_test {

inline std::string fixture_path(const std::string& name) {
  return std::string(KS_SOURCE_DIR) + "/tests/fixtures/why/" + name;
}

inline KernelCounters recorded_counters(const nlohmann::json& c) {
  KernelCounters k;
  k.kernel_name = c.at("kernel_name").get<std::string>();
  k.duration_ms = c.at("duration_ms").get<double>();
  k.dram_read_bytes = c.at("dram").at("read_bytes").get<double>();
  k.dram_write_bytes = c.at("dram").at("write_bytes").get<double>();
  k.dram_throughput_pct = c.at("dram").at("throughput_pct").get<double>();
  k.sm_throughput_pct = c.at("sm_throughput_pct").get<double>();
  k.achieved_occupancy_pct = c.at("achieved_occupancy_pct").get<double>();
  k.l1_hit_rate_pct = c.at("l1_hit_rate_pct").get<double>();
  k.l2_hit_rate_pct = c.at("l2_hit_rate_pct").get<double>();
  k.global_load_sectors = c.at("global_loads").at("sectors").get<double>();
  k.global_load_requests = c.at("global_loads").at("requests").get<double>();
  k.global_store_sectors = c.at("global_stores").at("sectors").get<double>();
  k.global_store_requests = c.at("global_stores").at("requests").get<double>();
  const nlohmann::json& s = c.at("shared");
  k.shared_load_instructions = s.at("load_instructions").get<double>();
  k.shared_store_instructions = s.at("store_instructions").get<double>();
  k.shared_load_bank_conflicts = s.at("load_bank_conflicts").get<double>();
  k.shared_store_bank_conflicts = s.at("store_bank_conflicts").get<double>();
  k.warp_execution_efficiency_pct = c.at("warp_execution_efficiency_pct").get<double>();
  return k;
}

inline RunReport recorded_run_report(const std::string& name) {
  std::ifstream in(fixture_path(name));
  if (!in) throw std::runtime_error("cannot open the fixture " + fixture_path(name));
  const nlohmann::json j = nlohmann::json::parse(in);
  RunReport r;
  r.kernel = j.at("kernel").get<std::string>();
  r.variant = j.at("variant").get<std::string>();
  r.backend = backend_from_string(j.at("backend").get<std::string>());
  r.device = j.at("device").get<std::string>();
  const nlohmann::json& image = j.at("image");
  r.shape = ImageShape{image.at("width").get<int>(), image.at("height").get<int>(), image.at("channels").get<int>(),
                       elem_type_from_string(image.at("type").get<std::string>())};
  for (const auto& [name_, value] : j.at("params").items()) r.params.emplace_back(name_, value.get<std::string>());
  if (!j.at("block").is_null()) r.block = BlockShape{j.at("block").at("x").get<int>(), j.at("block").at("y").get<int>()};
  const nlohmann::json& t = j.at("timings_ms");
  r.upload_ms = t.at("upload").get<double>();
  r.download_ms = t.at("download").get<double>();
  const nlohmann::json& k = t.at("kernel");
  r.kernel_time = {k.at("count").get<int>(), k.at("min").get<double>(), k.at("median").get<double>(),
                   k.at("p95").get<double>(), k.at("mean").get<double>()};
  if (!j.at("first_launch_ms").is_null()) r.first_launch_ms = j.at("first_launch_ms").get<double>();
  r.copy_bandwidth_gbps = j.at("copy_bandwidth_gbps").get<double>();
  if (!j.at("occupancy").is_null()) {
    const nlohmann::json& o = j.at("occupancy");
    OccupancyReport occ;
    occ.kernel_name = o.at("kernel_name").get<std::string>();
    occ.block_threads = o.at("block_threads").get<int>();
    occ.registers_per_thread = o.at("registers_per_thread").get<int>();
    occ.static_shared_bytes = o.at("static_shared_bytes").get<std::size_t>();
    occ.dynamic_shared_bytes = o.at("dynamic_shared_bytes").get<std::size_t>();
    occ.active_blocks_per_sm = o.at("active_blocks_per_sm").get<int>();
    occ.occupancy = o.at("occupancy").get<double>();
    occ.limiter = o.at("limiter").get<std::string>();
    r.occupancy = occ;
  }
  const nlohmann::json& f = j.at("roofline");
  r.roofline.intensity = f.at("arithmetic_intensity").get<double>();
  r.roofline.gflops = f.at("gflops").get<double>();
  r.roofline.gbps = f.at("gbps").get<double>();
  r.roofline.attainable_gflops = f.at("attainable_gflops").get<double>();
  r.roofline.percent_of_roof = f.at("percent_of_roof").get<double>();
  // A user kernel counts no operations: its ceiling has no name (null).
  const nlohmann::json& ceiling_name = f.at("ceiling").at("name");
  r.roofline.ceiling = {ceiling_name.is_null() ? std::string() : ceiling_name.get<std::string>(),
                        f.at("ceiling").at("gops").get<double>()};
  r.roofline.memory = {f.at("memory_ceiling").at("name").get<std::string>(),
                       f.at("memory_ceiling").at("gbps").get<double>()};
  r.roofline.peaks.where = f.at("where").get<std::string>();
  r.gbps = r.roofline.gbps;
  if (r.copy_bandwidth_gbps > 0) r.percent_of_copy = 100 * r.gbps / r.copy_bandwidth_gbps;
  if (!j.at("counters").is_null()) r.counters = recorded_counters(j.at("counters"));
  return r;
}

}  // namespace ks::why_test
