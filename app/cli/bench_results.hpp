#pragma once
// The results of a bench sweep and their three forms: the table printed at the end (also after Ctrl-C), CSV
// and JSON. Speedups compare rows of the same kernel, element type, size and channel count.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/bench_plan.hpp"
#include "report/table.hpp"
#include "engine/engine.hpp"
#include "lab/lab_report.hpp"

namespace ks::cli {

struct BenchRow {
  enum class Status { Ok, Skipped, Failed };
  BenchCase bench_case;
  Status status = Status::Ok;
  std::string note;             // why it was skipped or failed
  RunReport report;             // Ok only
  double speedup_vs_naive = 0;  // best naive block's median / this median; 0 when there is no naive row
  double speedup_vs_cpu = 0;    // the CPU row's median / this median; 0 when there is no CPU row
  std::optional<lab::LabReport> lab;  // lab kernels: the whole report (`report` holds its summary)
};

// The RunReport fields a bench table shows, from a lab report (kernel time, rates, occupancy, device).
RunReport summary_of(const lab::LabReport& lab);

const char* to_string(BenchRow::Status status) noexcept;  // "ok", "skipped", "failed"

void compute_speedups(std::vector<BenchRow>& rows);

// kernel, type, size, ch, variant, block, median ms, GB/s, % copy BW, vs naive, vs cpu, note (lab rows: type
// and ch "-", size as the kernel takes it)
report::Table bench_table(const std::vector<BenchRow>& rows);
// With --counters: one line per case that has them (the whole set is in --json); `unavailable` gets why the
// first case without them has none (every case would say the same).
std::string bench_counters_text(const std::vector<BenchRow>& rows, std::string& unavailable);

// One header line, then one line per row (RFC 4180 quoting where needed).
std::string bench_csv(const std::vector<BenchRow>& rows);

// {"schema": "kernelscope.bench/1", "complete", "devices": {cpu, cpu_simd, cuda},
//  "peaks": {"cpu": {memory_gbps, fma_gflops, where},
//  "cuda": ..} (the backends measured), "config", "results": [{kernel, type, size, channels, backend,
//  variant, block, params, status, note, median_ms, gbps, percent_of_copy, arithmetic_intensity, gflops,
//  percent_of_roof, speedup_vs_naive, speedup_vs_cpu, report: <run report JSON> | null}]} (arithmetic_intensity
//  and gflops null where the cost counts comparisons: sort); each report has its "why" findings, worked out
//  against `cuda_device_info` for the CUDA rows
nlohmann::ordered_json bench_json(const std::vector<BenchRow>& rows, const BenchConfig& config, bool complete,
                                  const std::string& cpu_device, const std::string& cpu_simd,
                                  const std::string& cuda_device,
                                  const std::map<Backend, ComputePeaks>& peaks = {},
                                  const DeviceInfo* cuda_device_info = nullptr);

}  // namespace ks::cli
