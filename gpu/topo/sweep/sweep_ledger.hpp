#pragma once
// The coordinator's book of one repetition of a sweep: which chunks of the current pass are to do, handed out or
// done, and what the done ones add up to. Internal to gpu/topo.
//
// Merging is exact and independent of which worker ran what, or when: chunk statistics are folded in chunk order
// (minimum with the lowest key among equals, exact integer sums, and real-valued sums always added in the same
// order), histogram counts are integers, and the top list keeps the best K by (cost, key, configuration). So one
// device, several devices and several ranks give the same bits, and so does a sweep resumed from a checkpoint.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "topo/sweep/sweep_messages.hpp"
#include "topo/sweep/sweep_work.hpp"

namespace ks::topo {

enum class ChunkState : std::uint8_t { Todo, Assigned, Done };

class SweepLedger {
 public:
  SweepLedger(const Problem& p, const EvalRequest& r, ChunkLayout layout);

  const ChunkLayout& layout() const { return layout_; }
  Pass pass() const { return pass_; }
  bool finished() const { return finished_; }  // every pass of the repetition is done
  // The pass after the current one (Stats, then Histogram, Top, Cube as the request needs them); false when the
  // repetition is finished. Starting the Histogram pass computes the bins from the complete statistics.
  bool advance();
  // Starts the first pass (Stats).
  void begin();

  // What `worker` should run next, marked handed out; empty when nothing is free for it now. In the Histogram
  // pass a worker first gets every chunk whose values its backend counted during the Stats pass, as one group
  // (the backend adds those counts in one go); chunks counted by other workers still alive wait for them.
  std::vector<std::uint64_t> take(int worker, const std::vector<bool>& alive);
  void give_back(const std::vector<std::uint64_t>& chunks);  // lost: to do again
  void record(const std::vector<std::uint64_t>& chunks, ChunkResult&& result, int worker);
  bool pass_complete() const { return done_ == layout_.count(); }
  std::uint64_t chunks_done() const { return done_; }
  std::uint64_t chunks_handed_out() const { return assigned_; }
  ChunkState state(std::uint64_t chunk) const { return state_[std::size_t(chunk)]; }

  // Results so far. Statistics: the contiguous done prefix of chunks folded, then the later done chunks in
  // order (all of them once the Stats pass is complete).
  std::vector<RawStats> stats() const;
  std::uint64_t stats_prefix() const;  // chunks [0, prefix) of the Stats pass are done
  std::uint64_t stats_chunks_done() const;
  std::vector<bool> stats_done() const;  // per chunk
  const std::vector<HistogramBins>& bins() const { return bins_; }
  const std::vector<std::array<std::uint64_t, kHistogramBins>>& counts() const { return counts_; }
  const std::vector<Candidate>& top() const { return top_; }  // best first, at most top_k
  bool histogram_done() const;
  bool top_done() const;

  // The state as JSON (checkpoints) and back; the layout and request are checked by the caller.
  nlohmann::ordered_json to_json() const;
  void from_json(const nlohmann::json& j);

 private:
  void merge_top(std::vector<Candidate>& more);

  const Problem& p_;
  PassPlan plan_;
  int top_k_ = 0;
  ChunkLayout layout_;
  Pass pass_ = Pass::Stats;
  bool finished_ = false;
  std::vector<ChunkState> state_;
  std::uint64_t done_ = 0, assigned_ = 0, cursor_ = 0;  // cursor_: no chunk below it is to do
  std::vector<int> counted_by_;                       // Stats chunk -> worker that counted its values, or -1
  bool counted_any_ = false;
  std::vector<RawStats> folded_;                      // Stats chunks [0, folded_chunks_)
  std::uint64_t folded_chunks_ = 0;
  std::map<std::uint64_t, std::vector<RawStats>> pending_;  // done Stats chunks beyond the prefix
  std::vector<bool> stats_done_;                      // kept once the Stats pass is over
  std::vector<HistogramBins> bins_;
  std::vector<std::array<std::uint64_t, kHistogramBins>> counts_;
  std::vector<Candidate> top_;
  bool hist_done_ = false, top_done_ = false;
};

// The bins of each pair's histogram from its statistics (see Histogram in evaluation.hpp).
std::vector<HistogramBins> histogram_bins(const Problem& p, const std::vector<RawStats>& stats);
// The order of the top list: cost, then key (placement), then configuration.
bool candidate_less(const Candidate& a, const Candidate& b, bool exact);

}  // namespace ks::topo
