#pragma once
// CUPTI gives a GPU's counters to one process at a time, and the app's profiler keeps them between readings
// (core/cuda/counter_profiler.hpp). Before the worker process reads a user kernel's counters, the app lets go of
// them; the worker lets go after each reading, so the next built-in reading takes them back. Called from jobs on
// the session's worker thread, the only thread that uses the engine.
#include "core/cuda_context.hpp"
#include "core/runtime.hpp"

namespace ks::app {

inline void hand_counters_to_worker(Runtime& engine) {
  if (engine.cuda_available()) engine.cuda().release_counters();
}

}  // namespace ks::app
