#pragma once
// Checkpoints of a sweep: what a long sweep has merged so far, written atomically every few seconds, so that a
// job stopped by a time limit, a dead rank or a failed GPU can go on from there (--resume) and end with the same
// result, to the last bit, as a sweep that never stopped. Internal to gpu/topo; the CLI names the files.
//
// A checkpoint is JSON: the fingerprint of the problem and request it belongs to (a resume with other inputs is
// refused), a description of them for that message, the sweep's state (sweep_ledger.hpp: the chunk layout, the
// pass, the chunks done, the merged statistics, histogram counts and top list) and a checksum of it all, so that a
// file cut short or changed is refused too.
#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "topo/evaluation.hpp"

namespace ks::topo {

// FNV-1a over everything that decides the results: the matrices, the placements asked for, the passes, and for
// costs that are not exact integers the backend, variant and block size (they fix the order of the sums).
std::uint64_t sweep_fingerprint(const Problem& p, const EvalRequest& r);
// "nug12.dat: 12 nodes, 1 timestamp(s), 1 configuration(s), exact costs; placements 0:479001600; ..."
std::string sweep_description(const Problem& p, const EvalRequest& r, const std::string& label);

struct SweepCheckpoint {
  std::uint64_t fingerprint = 0;
  std::string description;
  nlohmann::json ledger;           // SweepLedger::to_json()
  std::uint64_t evaluations = 0;   // done by the sessions so far
  double elapsed_s = 0;            // their wall time together
  int sessions = 0;                // runs that wrote it (1 for an uninterrupted one)
};

void write_checkpoint(const std::filesystem::path& path, const SweepCheckpoint& c);
// Usage Error when the file is missing; Io Error when it is truncated, corrupt or not a checkpoint.
SweepCheckpoint read_checkpoint(const std::filesystem::path& path);
// Usage Error, naming both, when the checkpoint belongs to another problem or request.
void check_checkpoint_fits(const SweepCheckpoint& c, const std::filesystem::path& path, std::uint64_t fingerprint,
                           const std::string& description);

}  // namespace ks::topo
