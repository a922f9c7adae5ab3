#include "core/cuda/counter_profiler.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <span>
#include <vector>

#include "core/cuda/cupti_library.hpp"

namespace ks {

namespace {

// Ranges one reading keeps: the most kernels one variant launches (a separable filter's two passes, a
// reduction's tree, a sort's stages) with room to spare; more are dropped and said so.
constexpr std::size_t kMaxRanges = 64;

// The current CUDA context of this thread, through the runtime's driver entry point (kernelscope does not link
// libcuda: a machine without the driver must still start the programs).
CUcontext current_context(std::string& failure) {
  using GetCurrent = CUresult (*)(CUcontext*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status{};
  if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &status) != cudaSuccess ||
      !fn) {
    cudaGetLastError();
    failure = "the CUDA driver does not offer cuCtxGetCurrent";
    return nullptr;
  }
  CUcontext ctx = nullptr;
  if (reinterpret_cast<GetCurrent>(fn)(&ctx) != CUDA_SUCCESS || !ctx) failure = "no CUDA context is current";
  return ctx;
}

bool forbidden(CUptiResult r) { return r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES; }

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// A CUPTI parameter struct, zeroed, with its size set (how CUPTI tells the versions of a struct apart).
template <typename Params>
Params params(std::size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}
#define CUPTI_PARAMS(Type) params<Type>(Type##_STRUCT_SIZE)

}  // namespace

struct CounterProfiler::HostObject {
  const CuptiLibrary& cupti;
  CUpti_Profiler_Host_Object* object = nullptr;
  std::vector<std::uint8_t> config;
  explicit HostObject(const CuptiLibrary& c) : cupti(c) {}
  ~HostObject() {
    if (!object) return;
    auto p = CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
    p.pHostObject = object;
    cupti.host_deinitialize(&p);
  }
};

CounterProfiler::CounterProfiler(int device_index)
    : device_index_(device_index), cupti_(std::make_unique<CuptiLibrary>()) {}

CounterProfiler::~CounterProfiler() = default;

std::string CounterProfiler::set_up() {
  const CuptiLibrary& c = *cupti_;
  if (!c.loaded()) return c.failure();
  // Said before CUPTI is asked: the driver's setting explains the refusal that would follow.
  if (std::ifstream params("/proc/driver/nvidia/params"); params && geteuid() != 0) {
    const std::string text((std::istreambuf_iterator<char>(params)), std::istreambuf_iterator<char>());
    if (profiling_restricted_to_admins(text)) return counters_forbidden_message();
  }
  auto init = CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
  if (const CUptiResult r = c.profiler_initialize(&init); r != CUPTI_SUCCESS)
    return forbidden(r) ? counters_forbidden_message() : c.describe("cuptiProfilerInitialize", r);

  auto chip = CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = std::size_t(device_index_);
  if (const CUptiResult r = c.device_get_chip_name(&chip); r != CUPTI_SUCCESS)
    return c.describe("cuptiDeviceGetChipName", r);

  // What this context's counters allow (another profiler may hold some); CUPTI schedules the metrics with it.
  auto avail = CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  avail.ctx = nullptr;  // the current context
  if (const CUptiResult r = c.get_counter_availability(&avail); r != CUPTI_SUCCESS)
    return forbidden(r) ? counters_forbidden_message() : c.describe("cuptiProfilerGetCounterAvailability", r);
  std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  if (const CUptiResult r = c.get_counter_availability(&avail); r != CUPTI_SUCCESS)
    return forbidden(r) ? counters_forbidden_message() : c.describe("cuptiProfilerGetCounterAvailability", r);

  host_ = std::make_unique<HostObject>(c);
  auto host = CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability.data();
  if (const CUptiResult r = c.host_initialize(&host); r != CUPTI_SUCCESS)
    return c.describe("cuptiProfilerHostInitialize", r);
  host_->object = host.pHostObject;

  const std::span<const char* const> names = counter_metric_names();
  // One at a time, so that a metric this chip lacks is named.
  for (const char* name : names) {
    auto add = CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host_->object;
    const char* one[] = {name};
    add.ppMetricNames = one;
    add.numMetrics = 1;
    if (const CUptiResult r = c.host_config_add_metrics(&add); r != CUPTI_SUCCESS)
      return std::string("this GPU (") + chip.pChipName + ") does not offer the metric " + name + ": " +
             c.describe("cuptiProfilerHostConfigAddMetrics", r);
  }
  auto size = CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = host_->object;
  if (const CUptiResult r = c.host_get_config_image_size(&size); r != CUPTI_SUCCESS)
    return c.describe("cuptiProfilerHostGetConfigImageSize", r);
  host_->config.resize(size.configImageSize);
  auto image = CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = host_->object;
  image.configImageSize = host_->config.size();
  image.pConfigImage = host_->config.data();
  if (const CUptiResult r = c.host_get_config_image(&image); r != CUPTI_SUCCESS)
    return c.describe("cuptiProfilerHostGetConfigImage", r);
  auto passes = CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  passes.configImageSize = host_->config.size();
  passes.pConfigImage = host_->config.data();
  if (const CUptiResult r = c.host_get_num_of_passes(&passes); r != CUPTI_SUCCESS)
    return c.describe("cuptiProfilerHostGetNumOfPasses", r);
  passes_ = int(passes.numOfPasses);
  return {};
}

CounterReading CounterProfiler::read(const std::function<void()>& work, const std::string& kernel_name) {
  CounterReading reading;
  if (!set_up_done_) {
    failure_ = set_up();
    set_up_done_ = true;
  }
  if (!failure_.empty()) {
    reading.unavailable = failure_;
    return reading;
  }
  const CuptiLibrary& c = *cupti_;
  std::string failure;
  const auto started = std::chrono::steady_clock::now();
  CUcontext ctx = current_context(failure);
  if (!ctx) {
    reading.unavailable = failure;
    return reading;
  }

  auto enable = CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
  enable.ctx = ctx;
  if (const CUptiResult r = c.range_enable(&enable); r != CUPTI_SUCCESS) {
    reading.unavailable = forbidden(r) ? (failure_ = counters_forbidden_message())
                                       : c.describe("cuptiRangeProfilerEnable", r) +
                                             " (is another profiler, such as Nsight Compute, attached?)";
    return reading;
  }
  // Disabled whatever happens below, so that later launches run unprofiled.
  struct Disable {
    const CuptiLibrary& c;
    CUpti_RangeProfiler_Object* object;
    ~Disable() {
      auto p = CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
      p.pRangeProfilerObject = object;
      c.range_disable(&p);
    }
  } disable{c, enable.pRangeProfilerObject};
  CUpti_RangeProfiler_Object* object = enable.pRangeProfilerObject;

  const std::span<const char* const> names = counter_metric_names();
  std::vector<const char*> metric_names(names.begin(), names.end());
  auto size = CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  size.pRangeProfilerObject = object;
  size.pMetricNames = metric_names.data();
  size.numMetrics = metric_names.size();
  size.maxNumOfRanges = kMaxRanges;
  size.maxNumRangeTreeNodes = kMaxRanges;
  if (const CUptiResult r = c.range_get_counter_data_size(&size); r != CUPTI_SUCCESS) {
    reading.unavailable = c.describe("cuptiRangeProfilerGetCounterDataSize", r);
    return reading;
  }
  std::vector<std::uint8_t> data(size.counterDataSize);
  auto init = CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  init.pRangeProfilerObject = object;
  init.counterDataSize = data.size();
  init.pCounterData = data.data();
  if (const CUptiResult r = c.range_counter_data_image_initialize(&init); r != CUPTI_SUCCESS) {
    reading.unavailable = c.describe("cuptiRangeProfilerCounterDataImageInitialize", r);
    return reading;
  }
  auto config = CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  config.pRangeProfilerObject = object;
  config.configSize = host_->config.size();
  config.pConfig = host_->config.data();
  config.counterDataImageSize = data.size();
  config.pCounterDataImage = data.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = kMaxRanges;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  if (const CUptiResult r = c.range_set_config(&config); r != CUPTI_SUCCESS) {
    reading.unavailable = c.describe("cuptiRangeProfilerSetConfig", r);
    return reading;
  }

  auto start = CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
  start.pRangeProfilerObject = object;
  if (const CUptiResult r = c.range_start(&start); r != CUPTI_SUCCESS) {
    reading.unavailable = forbidden(r) ? (failure_ = counters_forbidden_message())
                                       : c.describe("cuptiRangeProfilerStart", r);
    return reading;
  }
  const auto replay_started = std::chrono::steady_clock::now();
  work();
  cudaDeviceSynchronize();
  auto stop = CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
  stop.pRangeProfilerObject = object;
  if (const CUptiResult r = c.range_stop(&stop); r != CUPTI_SUCCESS) {
    reading.unavailable = c.describe("cuptiRangeProfilerStop", r);
    return reading;
  }
  const double replay_ms = ms_since(replay_started);
  auto decode = CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = object;
  if (const CUptiResult r = c.range_decode_data(&decode); r != CUPTI_SUCCESS) {
    reading.unavailable = c.describe("cuptiRangeProfilerDecodeData", r);
    return reading;
  }
  if (decode.numOfRangeDropped > 0) {
    reading.unavailable = "the work launched more than " + std::to_string(kMaxRanges) +
                          " kernels; counters are kept for runs of fewer";
    return reading;
  }
  auto info = CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  if (const CUptiResult r = c.range_get_counter_data_info(&info); r != CUPTI_SUCCESS) {
    reading.unavailable = c.describe("cuptiRangeProfilerGetCounterDataInfo", r);
    return reading;
  }
  if (info.numTotalRanges == 0) {
    reading.unavailable = "no kernel ran while the counters were on";
    return reading;
  }
  std::vector<std::vector<double>> ranges(info.numTotalRanges, std::vector<double>(names.size()));
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    auto eval = CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = host_->object;
    eval.pCounterDataImage = data.data();
    eval.counterDataImageSize = data.size();
    eval.rangeIndex = i;
    eval.ppMetricNames = metric_names.data();
    eval.numMetrics = metric_names.size();
    eval.pMetricValues = ranges[i].data();
    if (const CUptiResult r = c.host_evaluate_to_gpu_values(&eval); r != CUPTI_SUCCESS) {
      reading.unavailable = c.describe("cuptiProfilerHostEvaluateToGpuValues", r);
      return reading;
    }
  }
  reading.counters = combine_ranges(ranges, kernel_name);
  reading.counters->passes = passes_;
  reading.counters->replay_ms = replay_ms;
  reading.counters->read_ms = ms_since(started);
  return reading;
}

}  // namespace ks
