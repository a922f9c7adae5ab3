// `info`: the CUDA devices and what the timing tables compare against (each device's measured copy
// bandwidth and FMA peak: the roof of the roofline), or, without one, why not and what runs instead; and the
// CPU backend's peaks.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/commands.hpp"
#include "core/cpu_peaks.hpp"
#include "core/cuda_context.hpp"
#include "core/device_info.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "report/report_json.hpp"
#include "report/table.hpp"
#include "report/text_format.hpp"
#include "stencil/cpu/simd/simd_target.hpp"

namespace ks::cli {

using report::format_gbps;
using report::format_gflops;
using report::format_intensity;
using report::format_memory;
using report::Table;

namespace {

struct InfoOptions {
  bool json = false;
  bool bandwidth = true;  // measuring copies up to 1 GiB a few times; --no-bandwidth skips it
};

struct DeviceEntry {
  DeviceInfo info;
  double copy_gbps = 0;         // 0 when not measured
  double fma_gflops = 0;        // 0 when not measured
  // Integer ceilings (core/cuda/op_peaks.cu); 0 when not measured.
  double u8_gops = 0, i16_gops = 0, i32_gops = 0;
  HostLinkBandwidth host;       // zeros when not measured
  std::string bandwidth_error;  // why the measurement failed, if it did
};

std::vector<DeviceEntry> probe_devices(bool measure) {
  std::vector<DeviceEntry> out;
  for (const DeviceInfo& d : list_devices()) {
    DeviceEntry e{d, 0, 0, 0, 0, 0, {}, {}};
    if (measure) {
      // One device failing (busy, out of memory) should not hide the others.
      try {
        auto context = CudaContext::create(d.index);
        e.copy_gbps = context->copy_bandwidth_gbps();
        e.fma_gflops = context->fma_peak_gflops();
        e.u8_gops = context->op_peak_gops(OpKind::U8);
        e.i16_gops = context->op_peak_gops(OpKind::I16);
        e.i32_gops = context->op_peak_gops(OpKind::I32);
        e.host = context->host_bandwidth();
      } catch (const Error& err) {
        e.bandwidth_error = err.full_message();
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

nlohmann::ordered_json device_json(const DeviceEntry& e) {
  const DeviceInfo& d = e.info;
  nlohmann::ordered_json j = {{"index", d.index},
                              {"name", d.name},
                              {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
                              {"sm_count", d.sm_count},
                              {"total_memory_bytes", d.total_memory},
                              {"free_memory_bytes", d.free_memory},
                              {"driver_version", cuda_version_text(d.driver_version)},
                              {"runtime_version", cuda_version_text(d.runtime_version)},
                              {"warp_size", d.warp_size},
                              {"max_threads_per_block", d.max_threads_per_block},
                              {"max_block_dims", {d.max_block_dim_x, d.max_block_dim_y, d.max_block_dim_z}},
                              {"max_threads_per_sm", d.max_threads_per_sm},
                              {"max_blocks_per_sm", d.max_blocks_per_sm},
                              {"shared_memory_per_block_bytes", d.shared_memory_per_block},
                              {"shared_memory_per_block_optin_bytes", d.shared_memory_per_block_optin},
                              {"shared_memory_per_sm_bytes", d.shared_memory_per_sm},
                              {"registers_per_block", d.registers_per_block},
                              {"registers_per_sm", d.registers_per_sm},
                              {"l2_cache_bytes", d.l2_cache_bytes}};
  auto measured = [&](double v) { return v > 0 ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr); };
  j["copy_bandwidth_gbps"] = measured(e.copy_gbps);
  j["fma_peak_gflops"] = measured(e.fma_gflops);
  j["int_peak_gops"] = {
      {"u8", measured(e.u8_gops)}, {"i16", measured(e.i16_gops)}, {"i32", measured(e.i32_gops)}};
  j["clock_khz"] = d.clock_khz;
  j["host_bandwidth_gbps"] = {{"pageable_to_device", measured(e.host.pageable_to_device)},
                              {"pageable_from_device", measured(e.host.pageable_from_device)},
                              {"pinned_to_device", measured(e.host.pinned_to_device)},
                              {"pinned_from_device", measured(e.host.pinned_from_device)}};
  if (!e.bandwidth_error.empty()) j["copy_bandwidth_error"] = e.bandwidth_error;
  return j;
}

std::string device_text(const DeviceEntry& e) {
  const DeviceInfo& d = e.info;
  Table t({{"property"}, {"value"}});
  t.add_row({"compute capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)});
  t.add_row({"SMs", std::to_string(d.sm_count)});
  t.add_row({"memory",
             fmt::format("{} total, {} free", format_memory(d.total_memory), format_memory(d.free_memory))});
  t.add_row({"CUDA driver / runtime", fmt::format("{} / {}", cuda_version_text(d.driver_version),
                                                  cuda_version_text(d.runtime_version))});
  std::string bw = e.copy_gbps > 0
                       ? fmt::format("{} GB/s (device to device, read + write)", format_gbps(e.copy_gbps))
                   : e.bandwidth_error.empty() ? "not measured (--no-bandwidth)"
                                               : "measurement failed: " + e.bandwidth_error;
  t.add_row({"copy bandwidth", bw});
  if (e.fma_gflops > 0)
    t.add_row(
        {"FMA peak",
         fmt::format("{} GFLOP/s (f32, an FMA = 2 operations); ridge at {} op/B", format_gflops(e.fma_gflops),
                     format_intensity(ridge_intensity({e.copy_gbps, e.fma_gflops, d.name})))});
  if (e.i32_gops > 0)
    t.add_row({"integer peaks",
               fmt::format("{} GOP/s u8, {} i16, {} i32 (add and min/max per lane)", format_gflops(e.u8_gops),
                           format_gflops(e.i16_gops), format_gflops(e.i32_gops))});
  if (e.host.pinned_to_device > 0) {
    t.add_row({"host -> device", fmt::format("{} GB/s pinned, {} GB/s pageable", format_gbps(e.host.pinned_to_device),
                                             format_gbps(e.host.pageable_to_device))});
    t.add_row({"device -> host", fmt::format("{} GB/s pinned, {} GB/s pageable",
                                             format_gbps(e.host.pinned_from_device),
                                             format_gbps(e.host.pageable_from_device))});
  }
  t.add_row({"threads per block", fmt::format("up to {} ({} x {} x {})", d.max_threads_per_block,
                                              d.max_block_dim_x, d.max_block_dim_y, d.max_block_dim_z)});
  t.add_row({"threads / blocks per SM", fmt::format("{} / {}", d.max_threads_per_sm, d.max_blocks_per_sm)});
  t.add_row(
      {"shared memory",
       fmt::format("{} per block ({} opt-in), {} per SM", format_memory(d.shared_memory_per_block),
                   format_memory(d.shared_memory_per_block_optin), format_memory(d.shared_memory_per_sm))});
  t.add_row({"registers", fmt::format("{} per block, {} per SM", d.registers_per_block, d.registers_per_sm)});
  t.add_row({"L2 cache", format_memory(d.l2_cache_bytes)});
  return fmt::format("[{}] {}\n", d.index, d.name) + t.render(4);
}

nlohmann::ordered_json cpu_json(unsigned threads, const std::optional<ComputePeaks>& peaks) {
  auto measured = [&](double v) {
    return v > 0 ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json runnable = nlohmann::ordered_json::array();
  for (const auto& t : cpu::simd::runnable_simd_targets()) runnable.push_back(t.name);
  return {{"threads", threads},
          {"simd", cpu::simd::simd_description()},
          {"simd_targets", std::move(runnable)},
          {"copy_bandwidth_gbps", peaks ? measured(peaks->memory_gbps) : nlohmann::ordered_json(nullptr)},
          {"fma_peak_gflops", peaks ? measured(peaks->fma_gflops) : nlohmann::ordered_json(nullptr)},
          {"int_peak_gops", peaks ? nlohmann::ordered_json{{"u8", measured(peaks->u8_gops)},
                                                           {"i16", measured(peaks->i16_gops)},
                                                           {"i32", measured(peaks->i32_gops)}}
                                  : nlohmann::ordered_json(nullptr)},
          {"cached_copies", peaks ? to_json(*peaks).at("cached_copies") : nlohmann::ordered_json(nullptr)}};
}

// The instruction set the CPU backend's SIMD loops run, and the others this build could run here.
std::string cpu_simd_text() {
  std::string others;
  for (const auto& t : cpu::simd::runnable_simd_targets()) others += (others.empty() ? "" : ", ") + t.name;
  return fmt::format("CPU SIMD: {} (Highway's best of {})\n", cpu::simd::simd_description(), others);
}

std::string cpu_peaks_text(const ComputePeaks& p) {
  std::string cached;
  for (const auto& c : p.cached_copies)
    cached += fmt::format("{}{} at {}", cached.empty() ? "" : ", ",
                          format_memory(std::uint64_t(c.footprint_bytes)), format_gbps(c.gbps));
  return fmt::format(
      "CPU peaks: {} GFLOP/s f32 FMA, {} GB/s copy (read + write); ridge at {} op/B.\n"
      "CPU integer peaks (add and min/max per lane): {} GOP/s u8, {} i16, {} i32.\n"
      "CPU copy of working sets the caches hold (GB/s): {}.\n",
      format_gflops(p.fma_gflops), format_gbps(p.memory_gbps), format_intensity(ridge_intensity(p)),
      format_gflops(p.u8_gops), format_gflops(p.i16_gops), format_gflops(p.i32_gops), cached);
}

int run_info(const InfoOptions& opt, const GlobalOptions& global) {
  const std::vector<DeviceEntry> devices = probe_devices(opt.bandwidth);
  const std::string reason = devices.empty() ? no_device_reason() : std::string();
  ThreadPool pool(global.threads);
  const unsigned threads = pool.size();
  // The CPU backend's roof (about half a second), skipped with the bandwidths.
  const std::optional<ComputePeaks> cpu_peaks =
      opt.bandwidth ? std::optional<ComputePeaks>(measure_cpu_peaks(pool)) : std::nullopt;

  if (opt.json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& e : devices) list.push_back(device_json(e));
    nlohmann::ordered_json j = {{"schema", "kernelscope.info/1"}, {"kernelscope_version", KS_VERSION},
                                {"version", version_text()},      {"devices", std::move(list)},
                                {"no_device_reason", reason},     {"cpu", cpu_json(threads, cpu_peaks)}};
    fmt::print("{}\n", j.dump(2));
    return 0;
  }

  fmt::print("{}\n\n", version_text());
  if (devices.empty()) {
    fmt::print("No CUDA device: {}.\n", reason.empty() ? "none was found" : reason);
    fmt::print("The CPU backend is used, with {} thread{}.\n", threads, threads == 1 ? "" : "s");
  } else {
    fmt::print("CUDA device{}:\n", devices.size() == 1 ? "" : "s");
    for (const auto& e : devices) fmt::print("{}\n", device_text(e));
    fmt::print("CPU backend (--backend cpu): {} thread{}.\n", threads, threads == 1 ? "" : "s");
  }
  fmt::print("{}", cpu_simd_text());
  if (cpu_peaks) fmt::print("{}", cpu_peaks_text(*cpu_peaks));
  return 0;
}

}  // namespace

Command add_info_command(CLI::App& app, const GlobalOptions& global) {
  auto opt = std::make_shared<InfoOptions>();
  CLI::App* sub = app.add_subcommand(
      "info",
      "Show the CUDA devices, their measured copy bandwidth, FMA peak and host <-> device bandwidth, and the "
      "CPU backend's peaks");
  sub->add_flag("--json", opt->json, "Print JSON instead of text");
  sub->add_flag(
      "!--no-bandwidth", opt->bandwidth,
      "Skip measuring the bandwidths and peaks (a few 1 GiB device copies, 256 MiB host copies each way, "
      "an FMA kernel; on the CPU a short FMA loop and 128 MiB copies)");
  return {sub, [opt, &global] { return run_info(*opt, global); }};
}

}  // namespace ks::cli
