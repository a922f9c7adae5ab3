#pragma once
// What every family's runs share in one process: the CPU backend's thread pool, the CUDA context (created on
// first use) and each backend's measured peaks. The stencil Engine is one (engine/engine.hpp); simulations and
// lab runs take a Runtime, so they need nothing of the Engine.
#include <memory>
#include <optional>
#include <string>

#include "core/backend.hpp"
#include "core/cuda_context.hpp"
#include "core/peaks.hpp"
#include "core/thread_pool.hpp"

namespace ks {

class Runtime {
 public:
  struct Options {
    unsigned cpu_threads = 0;  // 0: every core
  };
  explicit Runtime(Options options);
  Runtime() : Runtime(Options{}) {}
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  ThreadPool& pool() noexcept { return *pool_; }
  // The CUDA context, created on first use; throws a Device error (hint: --backend cpu) when there is none.
  CudaContext& cuda();
  bool cuda_available();
  std::string cuda_unavailable_reason();
  // The roof of `backend`, measured once per runtime: CUDA from the context (copy bandwidth, FMA peak), the
  // CPU with short threaded loops on pool() (core/cpu_peaks.hpp, about half a second). Throws like cuda()
  // when CUDA is asked for and missing.
  const ComputePeaks& peaks(Backend backend);

 private:
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<CudaContext> cuda_;
  std::optional<ComputePeaks> cpu_peaks_, cuda_peaks_;
  std::string cuda_error_;
  bool cuda_tried_ = false;
};

}  // namespace ks
