#pragma once
// Progress of CPU work spread over the thread pool (a lab kernel's run_cpu): the workers report the fraction
// done; the run control's callback, which is not assumed thread-safe, is called under a lock; a cancelled run
// throws in the worker, and parallel_for passes the exception on to the caller.
#include <mutex>
#include <string>

#include "lab/lab_kernel.hpp"

namespace ks::lab {

class ThreadedProgress {
 public:
  ThreadedProgress(const LabRunControl* control, std::string stage)
      : control_(control), stage_(std::move(stage)) {}

  void operator()(double fraction) {
    if (!control_) return;
    throw_if_cancelled(*control_);
    std::lock_guard lock(mutex_);
    control_->report(fraction, stage_);
  }

 private:
  const LabRunControl* control_;
  std::string stage_;
  std::mutex mutex_;
};

}  // namespace ks::lab
