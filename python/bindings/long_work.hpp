#pragma once
// Ctrl-C and the progress callback of work that runs with the GIL released (sim, lab, topo). While a LongWork
// exists, SIGINT sets the CLI's interrupt flag (app/cli/interrupt.hpp) instead of Python's handler; the work
// polls it through `cancel` and stops between steps as the CLI does. The callback, progress(fraction, text),
// is called with the GIL from the thread that runs the work, at most every 0.1 s; an exception in it stops
// the work too.
#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "cli/interrupt.hpp"

namespace ks::python {

class LongWork {
 public:
  explicit LongWork(pybind11::object progress);

  std::atomic<bool> cancel{false};

  // From the working thread, without the GIL: Ctrl-C into `cancel`, and the callback when it is due.
  void report(double fraction, const std::string& text);
  // With the GIL, after the work: the callback's exception, or KeyboardInterrupt when Ctrl-C stopped the
  // work.
  void finish();
  bool interrupted() const noexcept { return interrupt_.raised(); }

 private:
  cli::InterruptFlag interrupt_;
  pybind11::object progress_;
  std::optional<pybind11::error_already_set> failure_;
  std::mutex mutex_;  // the lab reports from its pool's threads
  std::chrono::steady_clock::time_point last_call_{};
};

}  // namespace ks::python
