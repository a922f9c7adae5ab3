#pragma once
// Reads the hardware counters of the kernels one piece of work launches, through CUPTI's range profiler
// (auto ranges: one per kernel launch; kernel replay for the sets of several passes: CUPTI saves and restores
// device memory and runs a kernel again for each pass, so the work runs once as far as its results go; user
// replay for the one-pass set, whose single pass is the work's own launch, with nothing saved). A config image is built
// once per CounterSet, with all its metrics at once (CUPTI schedules them into the fewest passes then; one at a
// time they took three times as many). The range profiler is enabled on the first reading and stays enabled
// (configured for the last set of several passes; a one-pass reading configures each time, as user replay
// starts its passes over then) until release() or the profiler's end: enabling and disabling cost more than a
// one-pass reading itself (docs/PERF.md), and launches outside a reading run unprofiled all the same.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_counters.hpp"

namespace ks {

class CuptiLibrary;

class CounterProfiler {
 public:
  explicit CounterProfiler(int device_index);  // never throws: a failure becomes every reading's reason
  ~CounterProfiler();
  CounterProfiler(const CounterProfiler&) = delete;
  CounterProfiler& operator=(const CounterProfiler&) = delete;

  // Runs `work` (its launches finished when it returns) with the profiler on, and combines the counters of
  // every kernel it launched (combine_ranges); the metrics outside `set` are NaN. `kernel_name` names them in
  // the result. The device must be current on the calling thread; readings from several threads take turns.
  // Work launched while another profiler (Nsight Compute) holds the counters gives none, with the reason.
  CounterReading read(const std::function<void()>& work, const std::string& kernel_name, CounterSet set);
  // Lets go of the GPU's counters (the range profiler disabled), so that another process can read them: the
  // worker process after each reading, the app before its worker reads a user kernel's. The next reading takes
  // them again.
  void release();

 private:
  struct HostObject;
  struct SetConfig {
    std::vector<std::uint8_t> image;
    int passes = 0;
  };
  std::string set_up();                           // CUPTI and the chip; empty on success, else why not
  std::string configure(CounterSet set);          // the config image of `set`, made once
  std::string new_host_object(HostObject& host) const;  // for this chip, or why not
  std::string enable_for(CounterSet set);         // the range profiler on, configured for `set`
  std::string initialize_data();                  // the counter data image emptied for the next reading
  void disable() noexcept;

  int device_index_;
  std::unique_ptr<CuptiLibrary> cupti_;
  std::string chip_name_;                         // "GH100"
  std::vector<std::uint8_t> availability_;        // the counters this context may use, as CUPTI said
  std::unique_ptr<HostObject> host_;              // evaluates counter data of every set
  std::array<std::optional<SetConfig>, 2> configs_;  // by CounterSet
  std::string failure_;  // sticky: what the first set-up or a refusal by the driver said
  bool set_up_done_ = false;
  bool transient_ = false;  // the set-up's failure passes (another process held the counters)
  std::mutex reading_;
  // While enabled: the range profiler object, the set it is configured for and the counter data image CUPTI
  // writes into (bound to the object by the configuration, re-initialised for every reading).
  void* object_ = nullptr;  // CUpti_RangeProfiler_Object*
  std::optional<CounterSet> configured_;
  std::vector<std::uint8_t> data_;
};

}  // namespace ks
