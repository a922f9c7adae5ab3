#include "core/cuda/cupti_library.hpp"

#include <dlfcn.h>

#include <array>

namespace ks::cuda {

namespace {

// Where CUPTI may be: the loader's own search first, then the toolkit this build used (CUDA puts CUPTI beside
// the runtime, older layouts under extras/CUPTI).
std::array<std::string, 5> candidates() {
  const std::string toolkit = KS_CUDA_LIBRARY_DIR;
  return {"libcupti.so.13", "libcupti.so", toolkit + "/libcupti.so.13", toolkit + "/libcupti.so",
          toolkit + "/../extras/CUPTI/lib64/libcupti.so.13"};
}

template <typename F>
bool resolve(void* handle, const char* name, F& out, std::string& failure) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  if (!out && failure.empty()) failure = std::string("this CUPTI has no ") + name + " (CUDA 13's CUPTI has it)";
  return out != nullptr;
}

}  // namespace

CuptiLibrary::CuptiLibrary() {
  for (const std::string& path : candidates())
    if ((handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
  if (!handle_) {
    failure_ = "CUPTI (libcupti.so.13, part of the CUDA toolkit) was not found; install the toolkit's CUPTI or add "
               "its folder to LD_LIBRARY_PATH";
    return;
  }
  resolve(handle_, "cuptiGetResultString", get_result_string, failure_);
  resolve(handle_, "cuptiProfilerInitialize", profiler_initialize, failure_);
  resolve(handle_, "cuptiDeviceGetChipName", device_get_chip_name, failure_);
  resolve(handle_, "cuptiProfilerGetCounterAvailability", get_counter_availability, failure_);
  resolve(handle_, "cuptiProfilerHostInitialize", host_initialize, failure_);
  resolve(handle_, "cuptiProfilerHostDeinitialize", host_deinitialize, failure_);
  resolve(handle_, "cuptiProfilerHostConfigAddMetrics", host_config_add_metrics, failure_);
  resolve(handle_, "cuptiProfilerHostGetConfigImageSize", host_get_config_image_size, failure_);
  resolve(handle_, "cuptiProfilerHostGetConfigImage", host_get_config_image, failure_);
  resolve(handle_, "cuptiProfilerHostGetNumOfPasses", host_get_num_of_passes, failure_);
  resolve(handle_, "cuptiProfilerHostEvaluateToGpuValues", host_evaluate_to_gpu_values, failure_);
  resolve(handle_, "cuptiRangeProfilerEnable", range_enable, failure_);
  resolve(handle_, "cuptiRangeProfilerDisable", range_disable, failure_);
  resolve(handle_, "cuptiRangeProfilerGetCounterDataSize", range_get_counter_data_size, failure_);
  resolve(handle_, "cuptiRangeProfilerCounterDataImageInitialize", range_counter_data_image_initialize, failure_);
  resolve(handle_, "cuptiRangeProfilerSetConfig", range_set_config, failure_);
  resolve(handle_, "cuptiRangeProfilerStart", range_start, failure_);
  resolve(handle_, "cuptiRangeProfilerStop", range_stop, failure_);
  resolve(handle_, "cuptiRangeProfilerDecodeData", range_decode_data, failure_);
  resolve(handle_, "cuptiRangeProfilerGetCounterDataInfo", range_get_counter_data_info, failure_);
}

CuptiLibrary::~CuptiLibrary() {
  if (handle_) dlclose(handle_);
}

std::string CuptiLibrary::describe(const char* call, CUptiResult result) const {
  const char* text = nullptr;
  if (get_result_string) get_result_string(result, &text);
  return std::string(call) + " failed: " + (text ? text : "CUPTI error " + std::to_string(int(result)));
}

}  // namespace ks::cuda
