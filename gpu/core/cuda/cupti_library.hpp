#pragma once
// CUPTI's profiling entry points, opened at run time (core/runtime_library.hpp) rather than linked: a machine
// without CUPTI, or without an NVIDIA driver, still starts every kernelscope program; only counters are then
// absent, with the reason. One instance per CounterProfiler (the library itself stays mapped, see the
// constructor).
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <memory>
#include <string>

namespace ks {

class RuntimeLibrary;

class CuptiLibrary {
 public:
  CuptiLibrary();  // never throws: loaded() and failure() say how it went
  ~CuptiLibrary();
  CuptiLibrary(const CuptiLibrary&) = delete;
  CuptiLibrary& operator=(const CuptiLibrary&) = delete;

  bool loaded() const noexcept { return failure_.empty(); }
  const std::string& failure() const noexcept { return failure_; }
  // "cuptiRangeProfilerStart: CUPTI_ERROR_... (text)" for a failed call.
  std::string describe(const char* call, CUptiResult result) const;

  decltype(&cuptiGetResultString) get_result_string = nullptr;
  decltype(&cuptiProfilerInitialize) profiler_initialize = nullptr;
  decltype(&cuptiDeviceGetChipName) device_get_chip_name = nullptr;
  decltype(&cuptiProfilerGetCounterAvailability) get_counter_availability = nullptr;
  decltype(&cuptiProfilerHostInitialize) host_initialize = nullptr;
  decltype(&cuptiProfilerHostDeinitialize) host_deinitialize = nullptr;
  decltype(&cuptiProfilerHostConfigAddMetrics) host_config_add_metrics = nullptr;
  decltype(&cuptiProfilerHostGetConfigImageSize) host_get_config_image_size = nullptr;
  decltype(&cuptiProfilerHostGetConfigImage) host_get_config_image = nullptr;
  decltype(&cuptiProfilerHostGetNumOfPasses) host_get_num_of_passes = nullptr;
  decltype(&cuptiProfilerHostEvaluateToGpuValues) host_evaluate_to_gpu_values = nullptr;
  decltype(&cuptiRangeProfilerEnable) range_enable = nullptr;
  decltype(&cuptiRangeProfilerDisable) range_disable = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataSize) range_get_counter_data_size = nullptr;
  decltype(&cuptiRangeProfilerCounterDataImageInitialize) range_counter_data_image_initialize = nullptr;
  decltype(&cuptiRangeProfilerSetConfig) range_set_config = nullptr;
  decltype(&cuptiRangeProfilerStart) range_start = nullptr;
  decltype(&cuptiRangeProfilerStop) range_stop = nullptr;
  decltype(&cuptiRangeProfilerDecodeData) range_decode_data = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataInfo) range_get_counter_data_info = nullptr;

 private:
  std::unique_ptr<RuntimeLibrary> library_;
  std::string failure_;
};

}  // namespace ks
