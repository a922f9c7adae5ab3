#include "cli/counters_option.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "core/cuda_context.hpp"
#include "core/kernel_counters.hpp"

namespace ks::cli {

void add_counters_flag(CLI::App& command, bool& counters, CounterSet& set) {
  auto word = std::make_shared<std::string>();  // CLI11 writes the flag's value here; the callback reads it
  command
      .add_flag("--counters{all}", *word,
                "CUDA: read the GPU's hardware counters of one more launch after the timed ones, into the report "
                "and its JSON. --counters: all of them (DRAM bytes and throughput, SM throughput, achieved "
                "occupancy, L1/L2 hit rates, sectors per request, bank conflicts, warp efficiency; each kernel "
                "runs 9 times under the profiler); --counters=quick: one pass (DRAM, achieved occupancy, warp "
                "efficiency, shared instructions)")
      ->option_text("[=all|quick]")
      ->check(CLI::IsMember({"all", "quick"}))
      ->each([word, &counters, &set](const std::string& value) {
        counters = true;
        set = parse_counter_set(value);
      });
}

void use_counter_set(Runtime& runtime, bool counters, CounterSet set) {
  if (counters && runtime.cuda_available()) runtime.cuda().set_counter_set(set);
}

void say_no_counters(const std::string& reason) {
  if (reason.empty()) return;
  std::fflush(stdout);  // after what the command printed so far, not in the middle of it
  fmt::print(stderr, "no counters: {}\n", reason);
}

}  // namespace ks::cli
