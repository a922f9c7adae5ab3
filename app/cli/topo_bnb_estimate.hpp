#pragma once
// `kernelscope-cli topo --placements bnb --estimate N`: before a long proof, how many nodes it will explore
// (topo/bnb/tree_estimate.hpp: Knuth's random probes of the tree, from the incumbent the proof would start
// with), per configuration, in text and in --json; on the CPU threads, in one process.
#include <string>

#include "cli/commands.hpp"
#include "inputs/topo_inputs.hpp"

namespace ks::cli {

struct TopoBnbEstimateCall {
  const inputs::TopoInputs* inputs = nullptr;
  std::string qaplib_dat;  // --qaplib (named in the JSON)
  int probes = 0;          // --estimate; at least 1
  std::string json;
  unsigned threads = 0;  // 0: --threads (or every core)
};

int run_topo_bnb_estimate(const TopoBnbEstimateCall& call, const GlobalOptions& global);

}  // namespace ks::cli
