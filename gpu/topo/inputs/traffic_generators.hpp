#pragma once
// Built-in traffic generators, as specs (see spec.hpp): FAMILY:n=N[,t=T][,seed=S][,bytes=B][,daily=A][,names=a/b/c]
//   uniform    every pair an independent uniform amount in [0, bytes)
//   gravity    pair (i, j) proportional to mass(i) * mass(j), masses heavy-tailed, +-20% noise
//   hotspot    a little uniform traffic plus `hot=K` nodes (default 1) that exchange `bytes` with every node
//   allreduce  ring all-reduce of a `bytes` gradient: each node sends 2(n-1)/n * bytes to its successor
//   alltoall   each node sends bytes/n to every other node
//   ps         parameter server: `servers=S` (default 1) nodes; each worker sends bytes/S to each server and
//              receives as much back
// Every generator has a daily variation over its T timestamps, which span one day ("00:00", "00:45", ...): amounts
// are scaled by 1 - daily * cos(2 pi t / T) (quietest at midnight, busiest at noon; daily defaults to 0.5, 0 when
// T = 1). Amounts are whole bytes, so costs sum exactly. Seeds make them reproducible.
#include <string>

#include "topo/inputs/traffic.hpp"

namespace ks::topo {

TrafficSeries generate_traffic(const std::string& spec);
std::string traffic_spec_help();

}  // namespace ks::topo
