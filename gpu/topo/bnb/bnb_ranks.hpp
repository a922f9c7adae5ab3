#pragma once
// A proof across MPI ranks (mpirun -np N kernelscope-cli topo --placements bnb): rank 0 runs prove() as one
// process does (its threads, its checkpoint, the report) and hands subtrees of each configuration to the other
// ranks on the sweep's link (rank_link.hpp) and byte encoding (sweep_messages.hpp). Internal to gpu/topo/bnb.
//
// The protocol: a rank says Hello (or Failed), then receives Assigns (a configuration, subtrees, the incumbent)
// and sends a Report per Assign (the subtrees it finished, the bounds computed in them), in order. Rank 0 keeps
// two Assigns out per rank, so a rank asks for more by reporting and a fast rank takes more (the stealing); its
// own threads take from the front of the same queue (ProofTree::claim). A rank with GPUs gets larger Assigns: two
// groups of subtrees per GPU (kSubtreesPerGroup) beside a few subtrees per diving thread; a rank's threads take from
// its Assigns as they come (subtree_feed.hpp). A better placement found anywhere goes to rank 0 (Better) and from
// there to every rank, so all prune with it. Rank 0 ends with Stop; a rank answers Bye and
// sends nothing more. Subtrees out when a run stops stay open in the checkpoint, explored again on resume.
#include <cstdint>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/proof_tree.hpp"
#include "topo/sweep/rank_link.hpp"

namespace ks::topo {

enum class BnbMessageType : std::uint8_t { Hello = 21, Failed, Assign, Report, Better, Stop, Bye };

struct BnbMessage {
  BnbMessageType type = BnbMessageType::Stop;
  std::uint64_t fingerprint = 0;         // Hello: of the problem and request (bnb_state.hpp)
  std::uint32_t threads = 0;             // Hello
  std::uint32_t devices = 0;             // Hello: node evaluators (GPUs) the rank feeds beside its threads
  std::string text;                      // Hello: the rank's name; Failed: why
  std::int32_t configuration = 0;        // Assign, Report, Better
  std::vector<std::uint32_t> subtrees;   // Assign; Report: those finished
  std::uint64_t nodes = 0;               // Report: bounds computed in the finished subtrees
  std::int64_t cost = 0;                 // Assign, Better: the incumbent (scaled)
  std::vector<int> location_of;          // Assign, Better
};

std::vector<std::uint8_t> encode(const BnbMessage& m);
// Io Error for a message cut short or of another protocol.
BnbMessage decode_bnb(const std::vector<std::uint8_t>& bytes);

// Rank 0's side: the other ranks, what each has out, the incumbent they last heard of.
class ProofRanks {
 public:
  explicit ProofRanks(RankLink& link);
  ~ProofRanks() { stop_all(); }  // no rank is left waiting, whatever stopped rank 0
  ProofRanks(const ProofRanks&) = delete;
  ProofRanks& operator=(const ProofRanks&) = delete;
  int ranks() const { return link_.size(); }
  // Waits for every rank's Hello; Error for a rank that failed to start or proves another problem.
  void start(std::uint64_t fingerprint);
  // Called often while configuration `c` is proved: takes in reports and better placements, hands subtrees to
  // ranks with fewer than two Assigns out (none once `stopping`), sends a better incumbent to every rank.
  // Error for a rank that failed.
  void tick(int c, ProofTree& tree, Incumbent& incumbent, bool stopping);
  bool outstanding() const;  // Assigns not reported yet
  // Subtrees each rank reported finished, over every configuration ([0]: none, rank 0 counts its own elsewhere).
  const std::vector<std::uint64_t>& finished() const { return finished_; }
  // What each rank said of itself in its Hello: where it runs, its threads and GPUs ([0]: empty).
  const std::vector<std::string>& names() const { return names_; }
  // Stop to every rank, and waits for its Bye (what it sent before is dropped). Safe to call twice.
  void stop_all() noexcept;

 private:
  RankLink& link_;
  std::vector<int> out_;              // per rank: Assigns not reported
  std::vector<std::uint32_t> batch_;  // per rank: subtrees per Assign
  std::vector<std::string> names_;
  std::vector<std::uint64_t> finished_;
  std::int64_t sent_cost_ = 0;        // the incumbent every rank has heard of
  int sent_configuration_ = -1;
  bool stopped_ = false;
};

// Ranks > 0: says Hello, then proves the subtrees rank 0 hands out on `pool` until Stop, with r.evaluators (the
// rank's GPUs) each fed groups of them by a pool thread of its own, as prove() feeds them in one process. An
// Error on the way is sent to rank 0 as Failed (rank 0 reports it). Returns the rank's exit code: 0, or 1 after a
// failure. Usage Error, before Hello, for more devices than threads.
int serve_proof(const Problem& p, const BnbRequest& r, ThreadPool& pool, RankLink& link, const std::string& where);
// Ranks > 0 that could not set up (inputs missing on this host): tells rank 0 why, waits for Stop; returns 1.
int refuse_proof(RankLink& link, const std::string& why);

}  // namespace ks::topo
