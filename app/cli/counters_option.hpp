#pragma once
// `--counters[=all|quick]` on run, bench, lab and sim: the same flag, help and message everywhere.
#include <string>

#include <CLI/CLI.hpp>

#include "core/kernel_counters.hpp"
#include "core/runtime.hpp"

namespace ks::cli {

// `--counters` (all counters) or `--counters=quick` (one pass): sets `counters` and `set`.
void add_counters_flag(CLI::App& command, bool& counters, CounterSet& set);
// The set asked for, given to the CUDA context that reads counters (only when counters were asked for and a
// GPU is there: a CPU run creates no CUDA context for it).
void use_counter_set(Runtime& runtime, bool counters, CounterSet set);
// Counters were asked for and are absent: why, and what to do, on standard error (the report just has none).
void say_no_counters(const std::string& reason);

}  // namespace ks::cli
