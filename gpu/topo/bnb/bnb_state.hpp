#pragma once
// A proof's state between sessions: per configuration the incumbent, the subtrees done and the nodes and
// seconds spent, kept in a checkpoint (the sweep's container, topo/sweep/checkpoint.hpp: atomic writes, a
// fingerprint of the problem, a checksum). Internal to gpu/topo/bnb.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "topo/bnb/bnb.hpp"

namespace ks::topo {

struct ConfigurationState {
  int configuration = 0;
  std::int64_t incumbent = 0, search_best = 0;  // scaled costs
  std::vector<int> location_of;                 // the incumbent: position of each node
  std::int64_t root_bound = 0, bound = 0;       // bound: the lowest open subtree's (scaled)
  std::uint64_t subtrees = 0;                   // 0: not started
  std::vector<std::uint8_t> done;               // per subtree
  std::uint64_t explored = 0;                   // bounds computed in finished subtrees
  double seconds = 0;
  bool finished = false;
  std::vector<GapPoint> curve;
};

struct BnbCheckpoint {
  std::uint64_t fingerprint = 0;
  std::string description;
  int sessions = 1;
  std::vector<ConfigurationState> configurations;
};

std::uint64_t bnb_fingerprint(const Problem& p, const BnbRequest& r);
// "nug12.dat: 12 nodes, 1 timestamp(s), 1 configuration(s); placements bnb"
std::string bnb_description(const Problem& p, const BnbRequest& r);

void write_bnb_checkpoint(const std::filesystem::path& path, const BnbCheckpoint& c);
// Usage Error for a missing file or one of another problem (a sweep's included); Io Error for a corrupt one.
BnbCheckpoint read_bnb_checkpoint(const std::filesystem::path& path, const Problem& p, std::uint64_t fingerprint,
                                  const std::string& description);

// Usage Errors for a problem no proof takes: real-valued costs, n < 2, n > kMaxBnbNodes (bnb_run.cpp).
void check_bnb_problem(const Problem& p);
// The incumbents of every configuration from a tabu search of a fixed length, so that a run repeats exactly
// (bnb_run.cpp; prove() and estimate_proof() start from them).
std::vector<ConfigurationState> search_incumbents(const Problem& p, const BnbRequest& r, ThreadPool& pool);

}  // namespace ks::topo
