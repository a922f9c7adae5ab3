#pragma once
// A LabRunControl whose cancel flag follows a worker job's: run_lab reports progress between its steps, and that
// is where a Cancel pressed in the job indicator is noticed. For the Lab document's jobs (its runs, the sweep, the
// reference of a user's kernel).
#include <atomic>
#include <functional>
#include <string>

#include "lab/lab_kernel.hpp"
#include "session/worker.hpp"

namespace ks::app {

struct JobControl {
  std::atomic<bool> cancel{false};
  lab::LabRunControl control;

  JobControl(Worker::Context& ctx, std::function<void(double, const std::string&)> progress) {
    control.cancel = &cancel;
    control.progress = [this, &ctx, progress = std::move(progress)](double fraction, const std::string& stage) {
      if (ctx.cancelled()) cancel = true;
      if (progress) progress(fraction, stage);
    };
  }
};

}  // namespace ks::app
