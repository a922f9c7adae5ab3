#pragma once
// The timing of every run the session made, per kernel, newest last: what the Timing panel plots and what
// "Export timings" writes. Upload, download and display are their own columns because transfers and drawing
// can cost far more than the kernel.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"

namespace ks::app {

// One run of a kernel (warm-up, then `repeat` timed launches). kernel_ms is the median of those launches.
struct TimingEntry {
  std::uint64_t run = 0;        // the session's run number, 1 for the first
  std::uint64_t input = 0;      // which loaded image it ran on (the session's input generation)
  double at_s = 0;              // seconds since the session started
  std::string kernel;
  std::string variant;
  Backend backend = Backend::Cpu;
  std::string device;           // GPU name, or "CPU (N threads)"
  std::optional<BlockShape> block;
  ImageShape shape;
  std::string params;           // "radius=2 border=reflect101"
  TimingStats launches;         // the run's timed launches
  double upload_ms = 0;         // 0 on the CPU backend
  double download_ms = 0;
  double display_ms = -1;       // putting the result on screen; negative until it was drawn
  double gbps = 0;
  double percent_of_copy = 0;   // 0 without a measured copy bandwidth (CPU backend)

  double kernel_ms() const { return launches.median_ms; }
};

TimingEntry timing_entry_of(const RunReport& report, std::uint64_t run, double at_s, std::uint64_t input = 0);

// What makes runs comparable: the same input, kernel, variant, backend, block, image shape and type, and
// parameters. Statistics are taken over one series, never across (a p95 from another image means nothing here).
std::string series_key(const TimingEntry& e);

// Statistics over the entries of one series of a kernel (their kernel_ms), as the Timing panel shows them.
struct TimingSummary {
  int runs = 0;
  TimingStats kernel;           // over the runs' medians
  double last_gbps = 0;
  double last_percent_of_copy = 0;
  double median_upload_ms = 0;
  double median_download_ms = 0;
  double median_display_ms = -1;  // negative: nothing drawn yet
};

class TimingHistory {
 public:
  explicit TimingHistory(std::size_t limit_per_kernel = 200) : limit_(limit_per_kernel) {}

  void add(TimingEntry entry);  // drops the kernel's oldest entry past the limit
  // Sets the display time of run `run` (the renderer measures it when it draws that run's result).
  void set_display_ms(std::uint64_t run, double ms);

  const std::deque<TimingEntry>& of(const std::string& kernel) const;
  // The runs of the kernel's current series: those with the series key of its last run, oldest first.
  std::vector<TimingEntry> series(const std::string& kernel) const;
  // Statistics over series(kernel).
  TimingSummary summary(const std::string& kernel) const;
  std::size_t limit() const noexcept { return limit_; }
  bool empty() const noexcept { return entries_.empty(); }
  // Every entry of every kernel, ordered by run number.
  std::vector<TimingEntry> all() const;

 private:
  std::size_t limit_;
  std::map<std::string, std::deque<TimingEntry>> entries_;
};

// run, seconds, kernel, variant, backend, device, block, width, height, channels, type, params, launches, kernel
// min/median/p95 ms, upload, download, display ms, GB/s, % of copy bandwidth. One header line (RFC 4180).
std::string timing_csv(const std::vector<TimingEntry>& entries);
// {"schema": "kernelscope.timings/1", "kernelscope_version", "device", "copy_bandwidth_gbps",
//  "runs": [{run, at_s, kernel, variant, backend, device, block, image, params, kernel_ms {count,min,median,p95,mean},
//            upload_ms, download_ms, display_ms (null until drawn), gbps, percent_of_copy}]}
nlohmann::ordered_json timing_json(const std::vector<TimingEntry>& entries, const std::string& device,
                                   double copy_bandwidth_gbps);

}  // namespace ks::app
