#include "core/cuda/counter_profiler.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <span>
#include <utility>
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

// Another process holds the GPU's counters (Nsight Compute, the worker that runs users' kernels, another
// kernelscope): a refusal for now, not for good.
bool busy(CUptiResult r) { return r == CUPTI_ERROR_HARDWARE_BUSY; }
std::string busy_message() {
  return "another process is reading this GPU's counters (Nsight Compute, or another kernelscope); they are read "
         "again on the next run";
}

// One pass needs no replay: the application's own launch (user replay) is the pass, and CUPTI saves and
// restores no memory. More passes replay each kernel (kernel replay), so that the work's results stay as if it
// ran once.
CUpti_ProfilerReplayMode replay_mode(CounterSet set) {
  return set == CounterSet::Quick ? CUPTI_UserReplay : CUPTI_KernelReplay;
}

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

// The CUPTI names of a set's metrics, in the order of counter_metric_positions(set).
std::vector<const char*> metric_names_of(CounterSet set) {
  const std::span<const char* const> all = counter_metric_names();
  std::vector<const char*> names;
  for (const std::size_t position : counter_metric_positions(set)) names.push_back(all[position]);
  return names;
}

}  // namespace

// A chip's host object: configures metric sets and evaluates counter data. Deinitialised with its owner.
struct CounterProfiler::HostObject {
  const CuptiLibrary& cupti;
  CUpti_Profiler_Host_Object* object = nullptr;
  explicit HostObject(const CuptiLibrary& c) : cupti(c) {}
  ~HostObject() {
    if (!object) return;
    auto p = CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
    p.pHostObject = object;
    cupti.host_deinitialize(&p);
  }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;
};

std::string CounterProfiler::new_host_object(HostObject& host) const {
  auto init = CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip_name_.c_str();
  init.pCounterAvailabilityImage = availability_.data();
  if (const CUptiResult r = host.cupti.host_initialize(&init); r != CUPTI_SUCCESS)
    return host.cupti.describe("cuptiProfilerHostInitialize", r);
  host.object = init.pHostObject;
  return {};
}

CounterProfiler::CounterProfiler(int device_index)
    : device_index_(device_index), cupti_(std::make_unique<CuptiLibrary>()) {}

CounterProfiler::~CounterProfiler() { disable(); }

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
  chip_name_ = chip.pChipName;

  // What this context's counters allow (another profiler may hold some); CUPTI schedules the metrics with it.
  auto avail = CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  avail.ctx = nullptr;  // the current context
  if (const CUptiResult r = c.get_counter_availability(&avail); r != CUPTI_SUCCESS) {
    transient_ = busy(r);
    return forbidden(r) ? counters_forbidden_message()
                        : busy(r) ? busy_message() : c.describe("cuptiProfilerGetCounterAvailability", r);
  }
  availability_.resize(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability_.data();
  if (const CUptiResult r = c.get_counter_availability(&avail); r != CUPTI_SUCCESS) {
    transient_ = busy(r);
    return forbidden(r) ? counters_forbidden_message()
                        : busy(r) ? busy_message() : c.describe("cuptiProfilerGetCounterAvailability", r);
  }

  host_ = std::make_unique<HostObject>(c);
  return new_host_object(*host_);
}

std::string CounterProfiler::configure(CounterSet set) {
  std::optional<SetConfig>& slot = configs_[std::size_t(set)];
  if (slot) return {};
  const CuptiLibrary& c = *cupti_;
  HostObject host(c);  // a config image holds every metric its host object was given: one object per set
  if (std::string failure = new_host_object(host); !failure.empty()) return failure;
  std::vector<const char*> names = metric_names_of(set);
  auto add = CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = host.object;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  if (const CUptiResult r = c.host_config_add_metrics(&add); r != CUPTI_SUCCESS) {
    // Which one this chip lacks, asked one at a time in a scratch object (only on this failure).
    for (const char* name : names) {
      HostObject probe(c);
      if (!new_host_object(probe).empty()) break;
      auto one = CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
      one.pHostObject = probe.object;
      const char* single[] = {name};
      one.ppMetricNames = single;
      one.numMetrics = 1;
      if (c.host_config_add_metrics(&one) != CUPTI_SUCCESS)
        return "this GPU (" + chip_name_ + ") does not offer the metric " + name + ": " +
               c.describe("cuptiProfilerHostConfigAddMetrics", r);
    }
    return c.describe("cuptiProfilerHostConfigAddMetrics", r);
  }
  auto size = CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = host.object;
  if (const CUptiResult r = c.host_get_config_image_size(&size); r != CUPTI_SUCCESS)
    return c.describe("cuptiProfilerHostGetConfigImageSize", r);
  SetConfig config;
  config.image.resize(size.configImageSize);
  auto image = CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = host.object;
  image.configImageSize = config.image.size();
  image.pConfigImage = config.image.data();
  if (const CUptiResult r = c.host_get_config_image(&image); r != CUPTI_SUCCESS)
    return c.describe("cuptiProfilerHostGetConfigImage", r);
  auto passes = CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  passes.configImageSize = config.image.size();
  passes.pConfigImage = config.image.data();
  if (const CUptiResult r = c.host_get_num_of_passes(&passes); r != CUPTI_SUCCESS)
    return c.describe("cuptiProfilerHostGetNumOfPasses", r);
  config.passes = int(passes.numOfPasses);
  slot = std::move(config);
  return {};
}

std::string CounterProfiler::enable_for(CounterSet set) {
  const CuptiLibrary& c = *cupti_;
  if (!object_) {
    std::string failure;
    CUcontext ctx = current_context(failure);
    if (!ctx) return failure;
    auto enable = CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    enable.ctx = ctx;
    if (const CUptiResult r = c.range_enable(&enable); r != CUPTI_SUCCESS)
      return forbidden(r) ? (failure_ = counters_forbidden_message())
             : busy(r)    ? busy_message()
                          : c.describe("cuptiRangeProfilerEnable", r) +
                             " (is another profiler, such as Nsight Compute, attached?)";
    object_ = enable.pRangeProfilerObject;
  }
  auto* object = static_cast<CUpti_RangeProfiler_Object*>(object_);
  configured_.reset();
  std::vector<const char*> names = metric_names_of(set);
  auto size = CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  size.pRangeProfilerObject = object;
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = kMaxRanges;
  size.maxNumRangeTreeNodes = kMaxRanges;
  if (const CUptiResult r = c.range_get_counter_data_size(&size); r != CUPTI_SUCCESS)
    return c.describe("cuptiRangeProfilerGetCounterDataSize", r);
  data_.assign(size.counterDataSize, 0);
  if (std::string failure = initialize_data(); !failure.empty()) return failure;
  const SetConfig& set_config = *configs_[std::size_t(set)];
  auto config = CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  config.pRangeProfilerObject = object;
  config.configSize = set_config.image.size();
  config.pConfig = set_config.image.data();
  config.counterDataImageSize = data_.size();
  config.pCounterDataImage = data_.data();
  config.range = CUPTI_AutoRange;
  config.replayMode = replay_mode(set);
  config.maxRangesPerPass = kMaxRanges;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  if (const CUptiResult r = c.range_set_config(&config); r != CUPTI_SUCCESS)
    return c.describe("cuptiRangeProfilerSetConfig", r);
  configured_ = set;
  return {};
}

std::string CounterProfiler::initialize_data() {
  auto init = CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  init.pRangeProfilerObject = static_cast<CUpti_RangeProfiler_Object*>(object_);
  init.counterDataSize = data_.size();
  init.pCounterData = data_.data();
  if (const CUptiResult r = cupti_->range_counter_data_image_initialize(&init); r != CUPTI_SUCCESS)
    return cupti_->describe("cuptiRangeProfilerCounterDataImageInitialize", r);
  return {};
}

void CounterProfiler::release() {
  const std::lock_guard<std::mutex> turn(reading_);
  disable();
}

void CounterProfiler::disable() noexcept {
  if (!object_) return;
  auto p = CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
  p.pRangeProfilerObject = static_cast<CUpti_RangeProfiler_Object*>(object_);
  cupti_->range_disable(&p);
  object_ = nullptr;
  configured_.reset();
}

CounterReading CounterProfiler::read(const std::function<void()>& work, const std::string& kernel_name,
                                     CounterSet set) {
  const std::lock_guard<std::mutex> turn(reading_);
  CounterReading reading;
  const auto started = std::chrono::steady_clock::now();
  if (!set_up_done_) {
    transient_ = false;
    failure_ = set_up();
    set_up_done_ = true;
    if (transient_) {  // asked again on the next reading
      set_up_done_ = false;
      host_.reset();
      reading.unavailable = std::exchange(failure_, {});
      return reading;
    }
  }
  if (failure_.empty()) failure_ = configure(set);  // a chip that lacks a metric lacks it for good
  if (!failure_.empty()) {
    reading.unavailable = failure_;
    return reading;
  }
  const CuptiLibrary& c = *cupti_;
  // Once the profiler has been configured for kernel replay, a reading only re-initialises the counter data it
  // writes into; user replay starts its passes over with each configuration, so a one-pass reading configures.
  const bool configured = configured_ == set && replay_mode(set) == CUPTI_KernelReplay;
  // Another set: a profiler enabled afresh (configured for one replay mode, it collected nothing in the other).
  if (object_ && configured_ && configured_ != set) disable();
  std::string failure = configured ? initialize_data() : enable_for(set);
  if (!failure.empty()) {
    disable();  // the next reading starts afresh
    reading.unavailable = failure;
    return reading;
  }
  auto* object = static_cast<CUpti_RangeProfiler_Object*>(object_);

  const int passes = configs_[std::size_t(set)]->passes;
  const auto replay_started = std::chrono::steady_clock::now();
  // Kernel replay: one start and stop, CUPTI replays each kernel. User replay: the work once per pass.
  for (int pass = 0;; ++pass) {
    auto start = CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    start.pRangeProfilerObject = object;
    if (const CUptiResult r = c.range_start(&start); r != CUPTI_SUCCESS) {
      disable();
      reading.unavailable = forbidden(r) ? (failure_ = counters_forbidden_message())
                            : busy(r)    ? busy_message()
                                         : c.describe("cuptiRangeProfilerStart", r);
      return reading;
    }
    work();
    cudaDeviceSynchronize();
    auto stop = CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = object;
    if (const CUptiResult r = c.range_stop(&stop); r != CUPTI_SUCCESS) {
      disable();
      reading.unavailable = c.describe("cuptiRangeProfilerStop", r);
      return reading;
    }
    if (replay_mode(set) == CUPTI_KernelReplay || stop.isAllPassSubmitted || pass + 1 >= passes) break;
  }
  const double replay_ms = ms_since(replay_started);
  auto decode = CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = object;
  if (const CUptiResult r = c.range_decode_data(&decode); r != CUPTI_SUCCESS) {
    disable();
    reading.unavailable = c.describe("cuptiRangeProfilerDecodeData", r);
    return reading;
  }
  if (decode.numOfRangeDropped > 0) {
    reading.unavailable = "the work launched more than " + std::to_string(kMaxRanges) +
                          " kernels; counters are kept for runs of fewer";
    return reading;
  }
  auto info = CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = data_.data();
  info.counterDataImageSize = data_.size();
  if (const CUptiResult r = c.range_get_counter_data_info(&info); r != CUPTI_SUCCESS) {
    reading.unavailable = c.describe("cuptiRangeProfilerGetCounterDataInfo", r);
    return reading;
  }
  if (info.numTotalRanges == 0) {
    reading.unavailable = "no kernel ran while the counters were on";
    return reading;
  }
  // Evaluated in the set's order, then placed at their positions in counter_metric_names(); the rest stay NaN.
  std::vector<const char*> names = metric_names_of(set);
  const std::span<const std::size_t> positions = counter_metric_positions(set);
  std::vector<double> values(names.size());
  std::vector<std::vector<double>> ranges(
      info.numTotalRanges,
      std::vector<double>(counter_metric_names().size(), std::numeric_limits<double>::quiet_NaN()));
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    auto eval = CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = host_->object;
    eval.pCounterDataImage = data_.data();
    eval.counterDataImageSize = data_.size();
    eval.rangeIndex = i;
    eval.ppMetricNames = names.data();
    eval.numMetrics = names.size();
    eval.pMetricValues = values.data();
    if (const CUptiResult r = c.host_evaluate_to_gpu_values(&eval); r != CUPTI_SUCCESS) {
      reading.unavailable = c.describe("cuptiProfilerHostEvaluateToGpuValues", r);
      return reading;
    }
    for (std::size_t m = 0; m < positions.size(); ++m) ranges[i][positions[m]] = values[m];
  }
  reading.counters = combine_ranges(ranges, kernel_name);
  reading.counters->set = set;
  reading.counters->passes = passes;
  reading.counters->replay_ms = replay_ms;
  reading.counters->read_ms = ms_since(started);
  return reading;
}

}  // namespace ks
