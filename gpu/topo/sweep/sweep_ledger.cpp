#include "topo/sweep/sweep_ledger.hpp"

#include <algorithm>
#include <bit>

#include "core/error.hpp"

namespace ks::topo {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }
double from_bits(std::uint64_t v) { return std::bit_cast<double>(v); }

// Doubles as their bits, so that a checkpoint gives back the very same sums.
ordered_json stats_json(const RawStats& s) {
  return ordered_json::array({s.min_i, s.max_i, bits(s.min_d), bits(s.max_d), s.sum_i.lo, s.sum_i.hi,
                              bits(s.sum_d), s.key, s.count});
}

RawStats stats_of(const json& j) {
  if (!j.is_array() || j.size() != 9) throw std::runtime_error("statistics entry");
  RawStats s;
  s.min_i = j[0].get<std::int64_t>();
  s.max_i = j[1].get<std::int64_t>();
  s.min_d = from_bits(j[2].get<std::uint64_t>());
  s.max_d = from_bits(j[3].get<std::uint64_t>());
  s.sum_i.lo = j[4].get<std::uint64_t>();
  s.sum_i.hi = j[5].get<std::int64_t>();
  s.sum_d = from_bits(j[6].get<std::uint64_t>());
  s.key = j[7].get<std::uint64_t>();
  s.count = j[8].get<std::uint64_t>();
  return s;
}

ordered_json stats_list_json(const std::vector<RawStats>& v) {
  ordered_json a = ordered_json::array();
  for (const RawStats& s : v) a.push_back(stats_json(s));
  return a;
}

std::vector<RawStats> stats_list_of(const json& j, std::size_t pairs) {
  if (!j.is_array() || j.size() != pairs) throw std::runtime_error("statistics list");
  std::vector<RawStats> v;
  for (const auto& e : j) v.push_back(stats_of(e));
  return v;
}

// Done chunks as [first, end) ranges: short for the usual prefix.
ordered_json ranges_json(const std::vector<ChunkState>& state) {
  ordered_json a = ordered_json::array();
  for (std::size_t i = 0; i < state.size();) {
    if (state[i] != ChunkState::Done) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < state.size() && state[j] == ChunkState::Done) ++j;
    a.push_back({i, j});
    i = j;
  }
  return a;
}

std::vector<bool> done_of_ranges(const json& j, std::uint64_t chunks) {
  std::vector<bool> done(std::size_t(chunks), false);
  if (!j.is_array()) throw std::runtime_error("done ranges");
  for (const auto& r : j) {
    const std::uint64_t a = r.at(0).get<std::uint64_t>(), b = r.at(1).get<std::uint64_t>();
    if (a >= b || b > chunks) throw std::runtime_error("done range outside the chunks");
    for (std::uint64_t k = a; k < b; ++k) done[std::size_t(k)] = true;
  }
  return done;
}

}  // namespace

std::vector<HistogramBins> histogram_bins(const Problem& p, const std::vector<RawStats>& stats) {
  std::vector<HistogramBins> bins(stats.size());
  for (std::size_t k = 0; k < stats.size(); ++k) {
    const RawStats& s = stats[k];
    if (s.count == 0) continue;
    if (p.exact) {
      bins[k].lo_i = s.min_i;
      const std::uint64_t span = std::uint64_t(s.max_i - s.min_i) + 1;
      bins[k].width_i = std::int64_t((span + kHistogramBins - 1) / kHistogramBins);
    } else {
      bins[k].lo_d = s.min_d;
      bins[k].width_d = (s.max_d - s.min_d) / kHistogramBins;
    }
  }
  return bins;
}

bool candidate_less(const Candidate& a, const Candidate& b, bool exact) {
  if (exact ? a.cost_i != b.cost_i : a.cost_d != b.cost_d) return exact ? a.cost_i < b.cost_i : a.cost_d < b.cost_d;
  if (a.key != b.key) return a.key < b.key;
  return a.configuration < b.configuration;
}

SweepLedger::SweepLedger(const Problem& p, const EvalRequest& r, ChunkLayout layout)
    : p_(p), plan_(pass_plan(r)), top_k_(r.top_k), layout_(layout) {
  folded_.assign(std::size_t(p.pairs()), RawStats{});
}

void SweepLedger::begin() {
  pass_ = Pass::Stats;
  finished_ = false;
  state_.assign(std::size_t(layout_.count()), ChunkState::Todo);
  counted_by_.assign(state_.size(), -1);
  counted_any_ = false;
  done_ = assigned_ = cursor_ = 0;
}

bool SweepLedger::advance() {
  if (pass_ == Pass::Stats) stats_done_ = stats_done();
  std::optional<Pass> next;
  if (pass_ == Pass::Stats && plan_.histogram) next = Pass::Histogram;
  else if ((pass_ == Pass::Stats || pass_ == Pass::Histogram) && plan_.top) next = Pass::Top;
  else if (pass_ != Pass::Cube && plan_.cube) next = Pass::Cube;
  if (pass_ == Pass::Histogram) hist_done_ = true;
  if (pass_ == Pass::Top) top_done_ = true;
  if (!next) {
    finished_ = true;
    return false;
  }
  pass_ = *next;
  state_.assign(std::size_t(layout_.count()), ChunkState::Todo);
  done_ = assigned_ = cursor_ = 0;
  if (pass_ == Pass::Histogram) {
    bins_ = histogram_bins(p_, stats());
    counts_.assign(std::size_t(p_.pairs()), {});
  } else {
    counted_by_.assign(state_.size(), -1);  // value counts serve the Histogram pass only
    counted_any_ = false;
  }
  if (pass_ == Pass::Top) top_.clear();
  return true;
}

std::vector<std::uint64_t> SweepLedger::take(int worker, const std::vector<bool>& alive) {
  std::vector<std::uint64_t> out;
  auto owner_free = [&](std::uint64_t k) {
    const int o = pass_ == Pass::Histogram ? counted_by_[std::size_t(k)] : -1;
    return o < 0 || o == worker || !alive[std::size_t(o)];
  };
  if (pass_ == Pass::Histogram && counted_any_)
    for (std::uint64_t k = cursor_; k < state_.size(); ++k)
      if (state_[std::size_t(k)] == ChunkState::Todo && counted_by_[std::size_t(k)] == worker) out.push_back(k);
  if (out.empty()) {
    while (cursor_ < state_.size() && state_[std::size_t(cursor_)] != ChunkState::Todo) ++cursor_;
    for (std::uint64_t k = cursor_; k < state_.size(); ++k)
      if (state_[std::size_t(k)] == ChunkState::Todo && owner_free(k)) {
        out.push_back(k);
        break;
      }
  }
  for (std::uint64_t k : out) state_[std::size_t(k)] = ChunkState::Assigned;
  assigned_ += out.size();
  return out;
}

void SweepLedger::give_back(const std::vector<std::uint64_t>& chunks) {
  for (std::uint64_t k : chunks) {
    if (state_[std::size_t(k)] != ChunkState::Assigned) continue;
    state_[std::size_t(k)] = ChunkState::Todo;
    --assigned_;
    cursor_ = std::min(cursor_, k);
    if (pass_ == Pass::Histogram) counted_by_[std::size_t(k)] = -1;  // its counts died with the worker
  }
}

void SweepLedger::record(const std::vector<std::uint64_t>& chunks, ChunkResult&& r, int worker) {
  for (std::uint64_t k : chunks) {
    if (state_[std::size_t(k)] != ChunkState::Assigned)
      throw Error(ErrorKind::Internal, "a sweep chunk was reported that was not handed out");
    state_[std::size_t(k)] = ChunkState::Done;
  }
  assigned_ -= chunks.size();
  done_ += chunks.size();
  switch (pass_) {
    case Pass::Stats: {
      if (chunks.size() != 1 || r.stats.size() != folded_.size())
        throw Error(ErrorKind::Internal, "a sweep chunk's statistics do not fit the problem");
      const std::uint64_t k = chunks[0];
      if (r.counted_values) counted_by_[std::size_t(k)] = worker, counted_any_ = true;
      pending_.emplace(k, std::move(r.stats));
      while (!pending_.empty() && pending_.begin()->first == folded_chunks_) {
        const std::vector<RawStats>& s = pending_.begin()->second;
        for (std::size_t i = 0; i < s.size(); ++i) merge_raw(folded_[i], s[i], p_.exact);
        pending_.erase(pending_.begin());
        ++folded_chunks_;
      }
      break;
    }
    case Pass::Histogram:
      if (r.counts.size() != counts_.size())
        throw Error(ErrorKind::Internal, "a sweep chunk's histogram does not fit the problem");
      for (std::size_t i = 0; i < counts_.size(); ++i)
        for (int b = 0; b < kHistogramBins; ++b) counts_[i][std::size_t(b)] += r.counts[i][std::size_t(b)];
      break;
    case Pass::Top:
      merge_top(r.top);
      break;
    case Pass::Cube:
      break;
  }
}

void SweepLedger::merge_top(std::vector<Candidate>& more) {
  top_.insert(top_.end(), more.begin(), more.end());
  const bool exact = p_.exact;
  std::sort(top_.begin(), top_.end(), [exact](const Candidate& a, const Candidate& b) { return candidate_less(a, b, exact); });
  if (top_.size() > std::size_t(top_k_)) top_.resize(std::size_t(top_k_));
}

std::vector<RawStats> SweepLedger::stats() const {
  std::vector<RawStats> out = folded_;
  for (const auto& [k, s] : pending_)
    for (std::size_t i = 0; i < s.size(); ++i) merge_raw(out[i], s[i], p_.exact);
  return out;
}

std::uint64_t SweepLedger::stats_prefix() const { return folded_chunks_; }

std::uint64_t SweepLedger::stats_chunks_done() const { return folded_chunks_ + pending_.size(); }

std::vector<bool> SweepLedger::stats_done() const {
  if (pass_ != Pass::Stats) return stats_done_;
  std::vector<bool> done(state_.size(), false);
  for (std::size_t k = 0; k < state_.size(); ++k) done[k] = state_[k] == ChunkState::Done;
  return done;
}

bool SweepLedger::histogram_done() const { return hist_done_ && plan_.keep_histogram; }
bool SweepLedger::top_done() const { return top_done_; }

ordered_json SweepLedger::to_json() const {
  ordered_json j;
  j["pass"] = finished_ ? "done" : pass_name(pass_);
  j["chunks"] = {{"first", layout_.first}, {"end", layout_.end}, {"per_chunk", layout_.per_chunk}};
  j["done"] = finished_ ? ordered_json::array() : ranges_json(state_);
  ordered_json pending = ordered_json::array();
  for (const auto& [k, s] : pending_) pending.push_back({k, stats_list_json(s)});
  j["stats"] = {{"folded_chunks", folded_chunks_}, {"folded", stats_list_json(folded_)}, {"pending", pending}};
  if (pass_ != Pass::Stats || finished_) j["counts"] = counts_;
  if (pass_ == Pass::Top || pass_ == Pass::Cube || finished_) {
    ordered_json top = ordered_json::array();
    for (const Candidate& c : top_) top.push_back({c.cost_i, bits(c.cost_d), c.key, c.configuration});
    j["top"] = top;
  }
  return j;
}

void SweepLedger::from_json(const json& j) {
  const std::size_t pairs = std::size_t(p_.pairs());
  const std::string pass = j.at("pass").get<std::string>();
  begin();
  const json& st = j.at("stats");
  folded_chunks_ = st.at("folded_chunks").get<std::uint64_t>();
  if (folded_chunks_ > layout_.count()) throw std::runtime_error("folded chunks");
  folded_ = stats_list_of(st.at("folded"), pairs);
  pending_.clear();
  for (const auto& e : st.at("pending")) {
    const std::uint64_t k = e.at(0).get<std::uint64_t>();
    if (k <= folded_chunks_ || k >= layout_.count()) throw std::runtime_error("pending chunk");
    pending_[k] = stats_list_of(e.at(1), pairs);
  }
  auto mark_done = [&](const std::vector<bool>& done) {
    for (std::uint64_t k = 0; k < done.size(); ++k)
      if (done[std::size_t(k)]) state_[std::size_t(k)] = ChunkState::Done, ++done_;
  };
  if (pass == "sweep") {
    const std::vector<bool> done = done_of_ranges(j.at("done"), layout_.count());
    for (std::uint64_t k = 0; k < layout_.count(); ++k) {
      const bool merged = k < folded_chunks_ || pending_.count(k);
      if (merged != done[std::size_t(k)]) throw std::runtime_error("done chunks and statistics disagree");
    }
    mark_done(done);
    return;
  }
  if (folded_chunks_ != layout_.count() || !pending_.empty())
    throw std::runtime_error("statistics incomplete after the sweep pass");
  // Walk the passes behind us in order (advance() computes the bins from the statistics), each one complete.
  while (!finished_ && pass_name(pass_) != pass) {
    mark_done(std::vector<bool>(std::size_t(layout_.count()), true));
    advance();
  }
  if (!finished_ && pass == "done") throw std::runtime_error("finished too early");
  if (finished_ && pass != "done") throw std::runtime_error("pass " + pass + " is not one of this request");
  if (!finished_) mark_done(done_of_ranges(j.at("done"), layout_.count()));
  if (plan_.histogram) {
    counts_ = j.at("counts").get<std::vector<std::array<std::uint64_t, kHistogramBins>>>();
    if (counts_.size() != pairs) throw std::runtime_error("histogram counts");
  }
  if (plan_.top && (finished_ || pass_ == Pass::Top || pass_ == Pass::Cube)) {
    top_.clear();
    for (const auto& c : j.at("top")) {
      Candidate k;
      k.cost_i = c.at(0).get<std::int64_t>();
      k.cost_d = from_bits(c.at(1).get<std::uint64_t>());
      k.key = c.at(2).get<std::uint64_t>();
      k.configuration = c.at(3).get<int>();
      if (k.configuration < 0 || k.configuration >= p_.configs) throw std::runtime_error("top configuration");
      top_.push_back(k);
    }
    if (top_.size() > std::size_t(top_k_)) throw std::runtime_error("top list");
  }
}

}  // namespace ks::topo
