#pragma once
// `--counters` on run, bench, lab and sim: the same flag, help and message everywhere.
#include <string>

#include <CLI/CLI.hpp>

namespace ks::cli {

void add_counters_flag(CLI::App& command, bool& counters);
// Counters were asked for and are absent: why, and what to do, on standard error (the report just has none).
void say_no_counters(const std::string& reason);

}  // namespace ks::cli
