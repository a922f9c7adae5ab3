#pragma once
// `kernelscope-cli topo --placements search`: the search's options on the topo command and the run.
// cmd_topo.cpp adds the options (add_search_options) and hands over when the placements are "search"
// (run_topo_search); sweeps refuse the search-only options (check_no_search_options).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "inputs/topo_inputs.hpp"

namespace ks::cli {

struct SearchOptions {
  std::string algorithm;            // empty: the registry's default (or --param algorithm=...)
  std::vector<std::string> params;  // NAME=VALUE of the registry's "search" spec
  std::string time_text;            // seconds; empty: not given
  std::string iterations_text;      // per chain; empty: not given
  std::string target;               // stop at this cost
  std::string reference;            // compare with this cost
  std::string chart;                // SVG of the convergence curve
};

void add_search_options(CLI::App& sub, SearchOptions& opt);

// What the topo command already resolved, for the search.
struct TopoSearchCall {
  const inputs::TopoInputs* inputs = nullptr;
  std::string qaplib_dat;  // --qaplib: the .sln beside it is the reference
  std::string backend;     // "", "cpu", "cuda"
  std::uint64_t seed = 1;
  std::string json, csv;
};

int run_topo_search(const SearchOptions& opt, const TopoSearchCall& call, const GlobalOptions& global);

// Usage Error when a search-only option was given to a sweep.
void check_no_search_options(const SearchOptions& opt);

}  // namespace ks::cli
