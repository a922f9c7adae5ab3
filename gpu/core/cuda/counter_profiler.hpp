#pragma once
// Reads the hardware counters of the kernels one piece of work launches, through CUPTI's range profiler
// (auto ranges: one per kernel launch; kernel replay: CUPTI saves and restores device memory and runs a kernel
// again for each pass the metrics need, so the work runs once as far as its results go). The config image is
// built once per device; the range profiler is enabled only around the work, so other launches run unprofiled.
#include <functional>
#include <memory>
#include <string>

#include "core/kernel_counters.hpp"

namespace ks::cuda {

class CuptiLibrary;

class CounterProfiler {
 public:
  explicit CounterProfiler(int device_index);  // never throws: a failure becomes every reading's reason
  ~CounterProfiler();
  CounterProfiler(const CounterProfiler&) = delete;
  CounterProfiler& operator=(const CounterProfiler&) = delete;

  // Runs `work` (its launches finished when it returns) with the profiler on, and combines the counters of
  // every kernel it launched (combine_ranges). `kernel_name` names them in the result. The device must be
  // current on the calling thread. Work launched while another profiler (Nsight Compute) holds the counters
  // gives none, with the reason.
  CounterReading read(const std::function<void()>& work, const std::string& kernel_name);
  // How many times CUPTI runs each kernel to collect every metric (0 until the first reading set it up).
  int passes() const noexcept { return passes_; }

 private:
  std::string set_up();  // empty on success, else why not

  int device_index_;
  std::unique_ptr<CuptiLibrary> cupti_;
  struct HostObject;
  std::unique_ptr<HostObject> host_;
  std::string failure_;  // sticky: what the first set-up or a refusal by the driver said
  bool set_up_done_ = false;
  int passes_ = 0;
};

}  // namespace ks::cuda
