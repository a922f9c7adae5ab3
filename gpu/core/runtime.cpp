#include "core/runtime.hpp"

#include "core/cpu_peaks.hpp"
#include "core/error.hpp"

namespace ks {

Runtime::Runtime(Options options) : pool_(std::make_unique<ThreadPool>(options.cpu_threads)) {}
Runtime::~Runtime() = default;

CudaContext& Runtime::cuda() {
  if (!cuda_ && !cuda_tried_) {
    cuda_tried_ = true;
    try {
      cuda_ = CudaContext::create(0);
    } catch (const Error& e) {
      cuda_error_ = e.what();  // what is missing; the hint ("--backend cpu") is each front end's own
      throw;
    }
  }
  if (!cuda_) throw Error(ErrorKind::Device, cuda_error_.empty() ? "CUDA is not available" : cuda_error_);
  return *cuda_;
}

bool Runtime::cuda_available() {
  try {
    cuda();
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::string Runtime::cuda_unavailable_reason() { return cuda_available() ? std::string() : cuda_error_; }

const ComputePeaks& Runtime::peaks(Backend backend) {
  if (backend == Backend::Cpu) {
    if (!cpu_peaks_) cpu_peaks_ = measure_cpu_peaks(*pool_);
    return *cpu_peaks_;
  }
  if (!cuda_peaks_) {
    CudaContext& ctx = cuda();
    cuda_peaks_ = ComputePeaks{ctx.copy_bandwidth_gbps(), ctx.fma_peak_gflops(), ctx.device().name};
    cuda_peaks_->u8_gops = ctx.op_peak_gops(OpKind::U8);
    cuda_peaks_->i16_gops = ctx.op_peak_gops(OpKind::I16);
    cuda_peaks_->i32_gops = ctx.op_peak_gops(OpKind::I32);
  }
  return *cuda_peaks_;
}

}  // namespace ks
