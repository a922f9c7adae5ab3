#include "core/cuda/cupti_library.hpp"

#include "core/error.hpp"
#include "core/runtime_library.hpp"

namespace ks {

namespace {

// Where CUPTI may be: the loader's own search, then the toolkit this build used (CUDA 13 puts CUPTI beside the
// runtime), then the toolkit's older layout under extras/CUPTI.
std::vector<std::string> candidates() {
  const std::string toolkit = KS_CUDA_LIBRARY_DIR;
  std::vector<std::string> list = toolkit_library_candidates("libcupti.so.13", toolkit);
  list.push_back(toolkit + "/../extras/CUPTI/lib64/libcupti.so.13");
  return list;
}

}  // namespace

CuptiLibrary::CuptiLibrary() {
  try {
    // Never unloaded: CUPTI leaves callbacks in the driver that outlive a profiler (and a CudaContext), and a
    // second context in the same process (tests, a worker per GPU) must find them still mapped.
    library_ = std::make_unique<RuntimeLibrary>(
        candidates(), "CUPTI", "install the CUDA toolkit's CUPTI or add its folder to LD_LIBRARY_PATH", true);
    const RuntimeLibrary& l = *library_;
    get_result_string = l.function<decltype(get_result_string)>("cuptiGetResultString");
    profiler_initialize = l.function<decltype(profiler_initialize)>("cuptiProfilerInitialize");
    device_get_chip_name = l.function<decltype(device_get_chip_name)>("cuptiDeviceGetChipName");
    get_counter_availability =
        l.function<decltype(get_counter_availability)>("cuptiProfilerGetCounterAvailability");
    host_initialize = l.function<decltype(host_initialize)>("cuptiProfilerHostInitialize");
    host_deinitialize = l.function<decltype(host_deinitialize)>("cuptiProfilerHostDeinitialize");
    host_config_add_metrics = l.function<decltype(host_config_add_metrics)>("cuptiProfilerHostConfigAddMetrics");
    host_get_config_image_size =
        l.function<decltype(host_get_config_image_size)>("cuptiProfilerHostGetConfigImageSize");
    host_get_config_image = l.function<decltype(host_get_config_image)>("cuptiProfilerHostGetConfigImage");
    host_get_num_of_passes = l.function<decltype(host_get_num_of_passes)>("cuptiProfilerHostGetNumOfPasses");
    host_evaluate_to_gpu_values =
        l.function<decltype(host_evaluate_to_gpu_values)>("cuptiProfilerHostEvaluateToGpuValues");
    range_enable = l.function<decltype(range_enable)>("cuptiRangeProfilerEnable");
    range_disable = l.function<decltype(range_disable)>("cuptiRangeProfilerDisable");
    range_get_counter_data_size =
        l.function<decltype(range_get_counter_data_size)>("cuptiRangeProfilerGetCounterDataSize");
    range_counter_data_image_initialize = l.function<decltype(range_counter_data_image_initialize)>(
        "cuptiRangeProfilerCounterDataImageInitialize");
    range_set_config = l.function<decltype(range_set_config)>("cuptiRangeProfilerSetConfig");
    range_start = l.function<decltype(range_start)>("cuptiRangeProfilerStart");
    range_stop = l.function<decltype(range_stop)>("cuptiRangeProfilerStop");
    range_decode_data = l.function<decltype(range_decode_data)>("cuptiRangeProfilerDecodeData");
    range_get_counter_data_info =
        l.function<decltype(range_get_counter_data_info)>("cuptiRangeProfilerGetCounterDataInfo");
  } catch (const Error& e) {
    failure_ = e.full_message();
  }
}

CuptiLibrary::~CuptiLibrary() = default;

std::string CuptiLibrary::describe(const char* call, CUptiResult result) const {
  const char* text = nullptr;
  if (get_result_string) get_result_string(result, &text);
  return std::string(call) + " failed: " + (text ? text : "CUPTI error " + std::to_string(int(result)));
}

}  // namespace ks
