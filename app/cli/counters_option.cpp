#include "cli/counters_option.hpp"

#include <fmt/format.h>

#include <cstdio>


namespace ks::cli {

void add_counters_flag(CLI::App& command, bool& counters) {
  command.add_flag("--counters", counters,
                   "CUDA: read the GPU's hardware counters (DRAM bytes and throughput, SM throughput, achieved "
                   "occupancy, L1/L2 hit rates, sectors per request, bank conflicts, warp efficiency) of one more "
                   "launch after the timed ones; in the report and its JSON");
}

void say_no_counters(const std::string& reason) {
  if (reason.empty()) return;
  std::fflush(stdout);  // after what the command printed so far, not in the middle of it
  fmt::print(stderr, "no counters: {}\n", reason);
}

}  // namespace ks::cli
