#include "cli/bench_results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "report/lab_report_json.hpp"
#include "report/report_json.hpp"
#include "report/report_text.hpp"
#include "report/text_format.hpp"

namespace ks::cli {

using report::csv_field;
using report::format_gbps;
using report::format_ms;
using report::format_percent;
using report::format_speedup;
using report::Table;

const char* to_string(BenchRow::Status s) noexcept {
  switch (s) {
    case BenchRow::Status::Ok:
      return "ok";
    case BenchRow::Status::Skipped:
      return "skipped";
    case BenchRow::Status::Failed:
      return "failed";
  }
  return "?";
}

namespace {

using GroupKey = std::tuple<std::string, ElemType, int, int, std::string>;
GroupKey group_of(const BenchCase& c) {
  return {c.spec->id, c.type, c.size, c.channels, c.lab_size ? lab::to_string(*c.lab_size) : std::string()};
}

std::string size_text(const BenchCase& c) {
  if (!c.lab_size) return std::to_string(c.size);
  return c.lab_size->form == lab::SizeForm::Elements ? lab::short_text(c.lab_size->n()) : lab::to_string(*c.lab_size);
}

double median_of(const BenchRow& r) {
  return r.report.kernel_time.median_ms;
}

std::string block_text(const BenchCase& c) {
  return c.block ? to_string(*c.block) : "-";
}

std::string params_text(const BenchCase& c) {
  std::string s;
  for (const auto& [name, value] : c.params.as_text()) s += (s.empty() ? "" : " ") + name + "=" + value;
  return s;
}


// Plain numbers for machines: no units, enough digits, empty when undefined.
std::string csv_number(double v) {
  return v > 0 ? fmt::format("{:.6g}", v) : std::string();
}

nlohmann::ordered_json json_number(double v) {
  return v > 0 ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

}  // namespace

RunReport summary_of(const lab::LabReport& l) {
  RunReport r;
  r.kernel = l.kernel;
  r.variant = l.variant;
  r.backend = l.backend;
  r.device = l.device;
  r.params = l.params;
  r.block = l.block;
  r.upload_ms = l.upload_time.median_ms;
  r.download_ms = l.download_time.median_ms;
  r.kernel_time = l.kernel_time;
  r.cost = l.cost;
  r.gbps = l.gbps;
  r.copy_bandwidth_gbps = l.copy_bandwidth_gbps;
  r.percent_of_copy = l.percent_of_copy;
  r.occupancy = l.occupancy;
  r.roofline = l.roofline;
  r.counters = l.counters;
  r.counters_unavailable = l.counters_unavailable;
  return r;
}

void compute_speedups(std::vector<BenchRow>& rows) {
  std::map<GroupKey, double> best_naive, cpu;
  for (const auto& r : rows) {
    if (r.status != BenchRow::Status::Ok || median_of(r) <= 0) continue;
    const GroupKey key = group_of(r.bench_case);
    if (r.bench_case.variant == "naive") {
      auto [it, inserted] = best_naive.try_emplace(key, median_of(r));
      if (!inserted) it->second = std::min(it->second, median_of(r));
    }
    if (r.bench_case.backend == Backend::Cpu) cpu[key] = median_of(r);
  }
  for (auto& r : rows) {
    r.speedup_vs_naive = r.speedup_vs_cpu = 0;
    if (r.status != BenchRow::Status::Ok || median_of(r) <= 0) continue;
    const GroupKey key = group_of(r.bench_case);
    if (auto it = best_naive.find(key); it != best_naive.end())
      r.speedup_vs_naive = it->second / median_of(r);
    if (auto it = cpu.find(key); it != cpu.end()) r.speedup_vs_cpu = it->second / median_of(r);
  }
}

std::string bench_counters_text(const std::vector<BenchRow>& rows, std::string& unavailable) {
  std::string s;
  for (const auto& r : rows) {
    if (r.report.counters) {
      const KernelCounters& k = *r.report.counters;
      const double per_request = k.load_sectors_per_request();
      s += fmt::format("counters {} {} {} {}: DRAM {} of peak, SM {} of peak, achieved occupancy {}, {} sectors "
                       "per load request, warp efficiency {}\n",
                       r.bench_case.spec->id, size_text(r.bench_case), r.bench_case.variant, block_text(r.bench_case),
                       format_percent(k.dram_throughput_pct), format_percent(k.sm_throughput_pct),
                       format_percent(k.achieved_occupancy_pct),
                       std::isnan(per_request) ? std::string("-") : fmt::format("{:.2f}", per_request),
                       format_percent(k.warp_execution_efficiency_pct));
    } else if (unavailable.empty() && r.status == BenchRow::Status::Ok) {
      unavailable = r.report.counters_unavailable;
    }
  }
  return s;
}

Table bench_table(const std::vector<BenchRow>& rows) {
  using A = Table::Align;
  Table t({{"kernel"},
           {"type"},
           {"size", A::Right},
           {"ch", A::Right},
           {"variant"},
           {"block"},
           {"median ms", A::Right},
           {"GB/s", A::Right},
           {"% copy BW", A::Right},
           {"vs naive", A::Right},
           {"vs cpu", A::Right},
           {"note"}});
  for (const auto& r : rows) {
    const BenchCase& c = r.bench_case;
    const bool lab = c.lab_size.has_value();
    std::vector<std::string> cells = {c.spec->id, lab ? "-" : to_string(c.type), size_text(c),
                                      lab ? "-" : std::to_string(c.channels), c.variant, block_text(c)};
    if (r.status == BenchRow::Status::Ok) {
      cells.insert(cells.end(), {format_ms(median_of(r)), format_gbps(r.report.gbps),
                                 format_percent(r.report.percent_of_copy), format_speedup(r.speedup_vs_naive),
                                 format_speedup(r.speedup_vs_cpu), r.note});
    } else {
      cells.insert(cells.end(), {"-", "-", "-", "-", "-", std::string(to_string(r.status)) + ": " + r.note});
    }
    t.add_row(std::move(cells));
  }
  return t;
}

std::string bench_csv(const std::vector<BenchRow>& rows) {
  std::string out =
      "kernel,type,size,channels,backend,variant,block,params,status,median_ms,min_ms,p95_ms,upload_ms,"
      "download_ms,bytes,gbps,percent_of_copy,speedup_vs_naive,speedup_vs_cpu,occupancy,occupancy_limiter,"
      "registers_per_thread,device,note\n";
  for (const auto& r : rows) {
    const BenchCase& c = r.bench_case;
    const RunReport& rep = r.report;
    const bool ok = r.status == BenchRow::Status::Ok;
    const bool lab = c.lab_size.has_value();
    std::vector<std::string> f = {c.spec->id,
                                  lab ? "" : to_string(c.type),
                                  lab ? lab::to_string(*c.lab_size) : std::to_string(c.size),
                                  lab ? "" : std::to_string(c.channels),
                                  to_string(c.backend),
                                  c.variant,
                                  c.block ? to_string(*c.block) : "",
                                  params_text(c),
                                  to_string(r.status),
                                  ok ? csv_number(rep.kernel_time.median_ms) : "",
                                  ok ? csv_number(rep.kernel_time.min_ms) : "",
                                  ok ? csv_number(rep.kernel_time.p95_ms) : "",
                                  ok ? csv_number(rep.upload_ms) : "",
                                  ok ? csv_number(rep.download_ms) : "",
                                  ok ? std::to_string(rep.cost.bytes) : "",
                                  ok ? csv_number(rep.gbps) : "",
                                  ok ? csv_number(rep.percent_of_copy) : "",
                                  csv_number(r.speedup_vs_naive),
                                  csv_number(r.speedup_vs_cpu),
                                  rep.occupancy ? csv_number(rep.occupancy->occupancy) : "",
                                  rep.occupancy ? rep.occupancy->limiter : "",
                                  rep.occupancy ? std::to_string(rep.occupancy->registers_per_thread) : "",
                                  rep.device,
                                  r.note};
    std::string line;
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (i) line += ',';
      line += csv_field(f[i]);
    }
    out += line + '\n';
  }
  return out;
}

nlohmann::ordered_json bench_json(const std::vector<BenchRow>& rows, const BenchConfig& config, bool complete,
                                  const std::string& cpu_device, const std::string& cpu_simd,
                                  const std::string& cuda_device,
                                  const std::map<Backend, ComputePeaks>& peaks,
                                  const DeviceInfo* cuda_device_info) {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    const BenchCase& c = r.bench_case;
    const bool ok = r.status == BenchRow::Status::Ok;
    const DeviceInfo* device = c.backend == Backend::Cuda ? cuda_device_info : nullptr;
    // sort counts comparisons: no FLOP figures
    const bool flops = ok && !(r.lab && r.lab->operation_kind != lab::OperationKind::Flop);
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [name, value] : c.params.as_text()) params[name] = value;
    results.push_back(
        {{"kernel", c.spec->id},
         {"type", c.lab_size ? nlohmann::ordered_json() : nlohmann::ordered_json(to_string(c.type))},
         {"size",
          c.lab_size ? nlohmann::ordered_json(lab::to_string(*c.lab_size)) : nlohmann::ordered_json(c.size)},
         {"channels", c.lab_size ? nlohmann::ordered_json() : nlohmann::ordered_json(c.channels)},
         {"backend", to_string(c.backend)},
         {"variant", c.variant},
         {"block",
          c.block ? nlohmann::ordered_json{{"x", c.block->x}, {"y", c.block->y}} : nlohmann::ordered_json()},
         {"params", std::move(params)},
         {"status", to_string(r.status)},
         {"note", r.note},
         {"median_ms", ok ? json_number(median_of(r)) : nlohmann::ordered_json()},
         {"gbps", ok ? json_number(r.report.gbps) : nlohmann::ordered_json()},
         {"percent_of_copy", ok ? json_number(r.report.percent_of_copy) : nlohmann::ordered_json()},
         {"arithmetic_intensity", flops ? json_number(r.report.roofline.intensity) : nlohmann::ordered_json()},
         {"gflops", flops ? json_number(r.report.roofline.gflops) : nlohmann::ordered_json()},
         {"percent_of_roof", ok ? json_number(r.report.roofline.percent_of_roof) : nlohmann::ordered_json()},
         {"speedup_vs_naive", json_number(r.speedup_vs_naive)},
         {"speedup_vs_cpu", json_number(r.speedup_vs_cpu)},
         {"report", !ok     ? nlohmann::ordered_json()
                    : r.lab ? to_json(*r.lab, device)
                            : to_json(r.report, device)}});
  }
  nlohmann::ordered_json types = nlohmann::ordered_json::array(), blocks = nlohmann::ordered_json::array(),
                         backends = nlohmann::ordered_json::array();
  for (ElemType t : config.types) types.push_back(to_string(t));
  for (const auto& b : config.blocks) blocks.push_back(to_string(b));
  for (Backend b : config.backends) backends.push_back(to_string(b));
  nlohmann::ordered_json peaks_json = nlohmann::ordered_json::object();
  for (const auto& [backend, p] : peaks) peaks_json[to_string(backend)] = to_json(p);
  return {{"schema", "kernelscope.bench/1"},
          {"kernelscope_version", KS_VERSION},
          {"complete", complete},
          {"devices",
           {{"cpu", cpu_device},
            {"cpu_simd", cpu_simd.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(cpu_simd)},
            {"cuda", cuda_device.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(cuda_device)}}},
          {"peaks", std::move(peaks_json)},
          {"config",
           {{"kernels", config.kernels},
            {"sizes", config.sizes},
            {"types", std::move(types)},
            {"channels", config.channels},
            {"blocks", std::move(blocks)},
            {"backends", std::move(backends)},
            {"params", config.params},
            {"repeat", config.repeat},
            {"warmup", config.warmup}}},
          {"results", std::move(results)}};
}

}  // namespace ks::cli
