#include "report/report_json.hpp"

#include <cmath>

#include "report/counters_report.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"

namespace ks {

namespace {
// JSON has no NaN or infinity; a figure that could not be computed is written as 0 like the report's own
// default.
double finite(double v) {
  return std::isfinite(v) ? v : 0.0;
}
}  // namespace

nlohmann::ordered_json to_json(const ImageShape& shape) {
  return {{"width", shape.width},
          {"height", shape.height},
          {"channels", shape.channels},
          {"type", to_string(shape.type)}};
}

nlohmann::ordered_json to_json(const TimingStats& s) {
  return {{"count", s.count},
          {"min", finite(s.min_ms)},
          {"median", finite(s.median_ms)},
          {"p95", finite(s.p95_ms)},
          {"mean", finite(s.mean_ms)}};
}

nlohmann::ordered_json to_json(const OccupancyReport& o) {
  return {{"kernel_name", o.kernel_name},
          {"block_threads", o.block_threads},
          {"registers_per_thread", o.registers_per_thread},
          {"static_shared_bytes", o.static_shared_bytes},
          {"dynamic_shared_bytes", o.dynamic_shared_bytes},
          {"active_blocks_per_sm", o.active_blocks_per_sm},
          {"occupancy", finite(o.occupancy)},
          {"limiter", o.limiter}};
}

nlohmann::ordered_json to_json(const ComputePeaks& p) {
  nlohmann::ordered_json cached = nlohmann::ordered_json::array();
  for (const auto& c : p.cached_copies)
    cached.push_back({{"footprint_bytes", c.footprint_bytes}, {"gbps", finite(c.gbps)}});
  return {{"memory_gbps", finite(p.memory_gbps)},
          {"fma_gflops", finite(p.fma_gflops)},
          {"u8_gops", finite(p.u8_gops)},
          {"i16_gops", finite(p.i16_gops)},
          {"i32_gops", finite(p.i32_gops)},
          {"cached_copies", std::move(cached)},
          {"where", p.where}};
}

nlohmann::ordered_json to_json(const RooflineFigures& f) {
  nlohmann::ordered_json by_kind = nlohmann::ordered_json::object();
  for (OpKind k : kAllOpKinds)
    if (f.mix[k] > 0) by_kind[std::string(op_kind_key(k))] = f.mix[k];
  return {{"arithmetic_intensity", finite(f.intensity)},
          {"gflops", finite(f.gflops)},
          {"gbps", finite(f.gbps)},
          {"attainable_gflops", finite(f.attainable_gflops)},
          {"percent_of_roof", finite(f.percent_of_roof)},
          {"operations_by_kind", std::move(by_kind)},
          {"ceiling",
           {{"name", f.ceiling.name.empty() ? nlohmann::ordered_json(nullptr)
                                            : nlohmann::ordered_json(f.ceiling.name)},
            {"gops", finite(f.ceiling.gops)}}},
          {"memory_ceiling", {{"name", f.memory.name}, {"gbps", finite(f.memory.gbps)}}},
          {"peaks", to_json(f.peaks)}};
}

nlohmann::ordered_json report_head(const char* schema, const std::string& kernel, const std::string& variant,
                                   Backend backend, const std::string& device) {
  nlohmann::ordered_json j;
  j["schema"] = schema;
  j["kernelscope_version"] = KS_VERSION;
  j["kernel"] = kernel;
  j["variant"] = variant;
  j["backend"] = to_string(backend);
  j["device"] = device;
  return j;
}

nlohmann::ordered_json optional_ms(const std::optional<double>& ms) {
  return ms ? nlohmann::ordered_json(finite(*ms)) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json to_json(const RunReport& r, const DeviceInfo* device) {
  nlohmann::ordered_json j = report_head(kRunReportSchema, r.kernel, r.variant, r.backend, r.device);
  j["cpu_simd"] = r.cpu_simd.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.cpu_simd);
  j["image"] = to_json(r.shape);
  // An object keeps lookups simple for readers; ordered_json keeps the kernel's own parameter order.
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [name, value] : r.params) params[name] = value;
  j["params"] = std::move(params);
  j["block"] = r.block ? nlohmann::ordered_json{{"x", r.block->x}, {"y", r.block->y}}
                       : nlohmann::ordered_json(nullptr);
  j["timings_ms"] = {{"upload", finite(r.upload_ms)},
                     {"download", finite(r.download_ms)},
                     {"kernel", to_json(r.kernel_time)}};
  j["cost"] = {{"bytes", r.cost.bytes}, {"operations", r.cost.operations}};
  j["gbps"] = finite(r.gbps);
  j["copy_bandwidth_gbps"] = finite(r.copy_bandwidth_gbps);
  j["percent_of_copy"] = finite(r.percent_of_copy);
  j["occupancy"] = r.occupancy ? to_json(*r.occupancy) : nlohmann::ordered_json(nullptr);
  j["counters"] = report::counters_json(r.counters, double(r.cost.operations));
  j["roofline"] = to_json(r.roofline);
  j["first_launch_ms"] = optional_ms(r.first_launch_ms);
  j["why"] = report::why_json(report::explain_why(r, device));
  return j;
}

nlohmann::ordered_json run_command_json(const RunReport& report, const std::string& input_path,
                                        const ImageShape& input_shape, const std::string& output_path, int warmup,
                                        const DeviceInfo* device) {
  const auto text_or_null = [](const std::string& s) {
    return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
  };
  nlohmann::ordered_json j = to_json(report, device);
  j["input"] = {{"path", text_or_null(input_path)}, {"image", to_json(input_shape)}};
  j["output"] = text_or_null(output_path);
  j["warmup"] = warmup;
  return j;
}

}  // namespace ks
