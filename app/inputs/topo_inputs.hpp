#pragma once
// What `kernelscope-cli topo` sweeps, from its options: the traffic (a file, a generator or a QAPLIB
// instance), the topology configurations, and which placements (the Topology panel takes the same words).
// Usage Errors for contradictory options; the loaders' Io Errors (file and line) pass through.
#include <cstdint>
#include <string>
#include <vector>

#include "topo/evaluation.hpp"
#include "topo/inputs/topology.hpp"

namespace ks::inputs {

struct TopoSource {
  std::string traffic, generate, qaplib;  // exactly one is set
  std::vector<std::string> topologies;
  std::string metric = "hops";
};

struct TopoInputs {
  topo::TrafficSeries traffic;
  std::vector<topo::Configuration> configs;
  std::string metric;           // what the path costs count: hops, weighted, given
  std::string qaplib_instance;  // with --qaplib
};

TopoInputs load_topo_inputs(const TopoSource& src);

// --placements all|sample:N|identity|FILE into the request (FILE: one placement per line, the node names in
// position order, separated by blanks or commas; `#` starts a comment).
void apply_placements(const std::string& arg, const topo::TrafficSeries& traffic, topo::EvalRequest& request);

// --range A:B (placement indices, B exclusive; "A:" runs to n!).
void apply_range(const std::string& arg, topo::EvalRequest& request);

}  // namespace ks::inputs
