// Built only without the CUDA backend: device queries answer "none" and say why.
#include "core/cuda_context.hpp"
#include "core/device_info.hpp"
#include "core/error.hpp"
#include "core/no_cuda.hpp"

namespace ks {

// The member CudaContext owns through unique_ptr, complete here so that its destructor compiles; this build
// never makes one (create throws), and has no CUDA sources that define it otherwise.
class CounterProfiler {};

std::vector<DeviceInfo> list_devices() { return {}; }

std::string no_device_reason() {
  return std::string(kNoCudaBackend) + " (it was configured without a CUDA compiler)";
}

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::unique_ptr<CudaContext> CudaContext::create(int) {
  throw Error(ErrorKind::Device, "CUDA is not available: " + no_device_reason(), kNoCudaHint);
}

CudaContext::~CudaContext() = default;

void CudaContext::make_current() const {}

CounterReading CudaContext::read_counters(const std::function<void()>&, const std::string&) {
  return {std::nullopt, no_device_reason()};
}

void CudaContext::release_counters() {}

double CudaContext::copy_bandwidth_gbps() { return 0; }

double CudaContext::fma_peak_gflops() {
  return 0;
}

double CudaContext::op_peak_gops(OpKind) {
  return 0;
}

const HostLinkBandwidth& CudaContext::host_bandwidth() {
  if (!host_bandwidth_) host_bandwidth_ = std::make_unique<HostLinkBandwidth>();
  return *host_bandwidth_;
}

}  // namespace ks
