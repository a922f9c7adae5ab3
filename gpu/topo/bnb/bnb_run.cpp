// prove(): checks the request, takes the incumbents from a short tabu search (or a checkpoint), then proves
// each configuration in turn on the pool's threads while this thread reports progress, keeps the gap curve,
// writes checkpoints and watches the time limit and Cancel.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <thread>

#include "core/error.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/bnb_ranks.hpp"
#include "topo/bnb/bnb_state.hpp"
#include "topo/bnb/node_batch.hpp"
#include "topo/bnb/proof_tree.hpp"
#include "topo/search/search.hpp"

namespace ks::topo {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr double kProgressEvery_s = 0.1;
constexpr double kRanksEvery_s = 0.002;  // under MPI: how often the other ranks' messages are taken in
constexpr std::size_t kMaxCurvePoints = 4000;  // then every other point is dropped

void check_request(const Problem& p, const BnbRequest& r) {
  check_bnb_problem(p);
  if (!(r.time_s >= 0) || std::isinf(r.time_s))
    throw_usage(fmt::format("time limit {} s is not a duration", r.time_s), "give seconds > 0, e.g. --time 60");
  if (p.n > kMaxBnbUnlimitedNodes && r.time_s == 0)
    throw_usage(fmt::format("{} nodes: a proof of optimality past {} nodes can take days (nug30 took ~96 000 "
                            "CPU-hours), and no time limit was given",
                            p.n, kMaxBnbUnlimitedNodes),
                "give --time S to stop after S seconds with the gap proved so far, or use --placements search");
  if (!(r.checkpoint_every_s > 0)) throw_usage("the checkpoint interval must be more than 0 seconds");
}

Cost cost_of(const Problem& p, std::int64_t scaled) { return Cost{scaled, p.cost_value(scaled)}; }

std::vector<int> placement_of(const std::vector<int>& location_of) {
  std::vector<int> placement(location_of.size());
  for (std::size_t f = 0; f < location_of.size(); ++f) placement[std::size_t(location_of[f])] = int(f);
  return placement;
}

std::vector<int> locations_of(const std::vector<int>& placement) {
  std::vector<int> location_of(placement.size());
  for (std::size_t i = 0; i < placement.size(); ++i) location_of[std::size_t(placement[i])] = int(i);
  return location_of;
}


void add_point(std::vector<GapPoint>& curve, GapPoint point) {
  if (!curve.empty() && curve.back().bound.scaled == point.bound.scaled &&
      curve.back().incumbent.scaled == point.incumbent.scaled && curve.size() > 1)
    curve.back() = point;  // flat: move the end along
  else
    curve.push_back(point);
  if (curve.size() > kMaxCurvePoints) {
    std::vector<GapPoint> thinned;
    for (std::size_t k = 0; k < curve.size(); k += 2) thinned.push_back(curve[k]);
    if (thinned.back().time_s != curve.back().time_s) thinned.push_back(curve.back());
    curve = std::move(thinned);
  }
}

}  // namespace

void check_bnb_problem(const Problem& p) {
  if (!p.exact)
    throw_usage("branch and bound proves optimality on exact costs only, and these are not exact: " + p.real_reason,
                "give traffic and path costs as decimals, or use --placements search");
  if (p.n < 2) throw_usage(fmt::format("{} node: there is nothing to prove", p.n), "a placement needs at least 2 nodes");
  if (p.n > kMaxBnbNodes)
    throw_usage(fmt::format("{} nodes: branch and bound places at most {}", p.n, kMaxBnbNodes),
                "use --placements search for large networks");
}

bool provable_without_time_limit(const Problem& p) {
  try {
    check_request(p, BnbRequest{});
    return true;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Usage) return false;
    throw;
  }
}

std::vector<ConfigurationState> search_incumbents(const Problem& p, const BnbRequest& r, ThreadPool& pool) {
  SearchRequest s;
  s.params.chains = 4;
  s.seed = 1;
  s.iterations = r.search_iterations ? r.search_iterations : std::uint64_t(1000) * std::uint64_t(p.n);
  const SearchResult found = search(p, s, {}, pool, nullptr);
  std::vector<ConfigurationState> out;
  for (const ConfigurationSearch& c : found.configurations) {
    ConfigurationState st;
    st.configuration = c.configuration;
    st.incumbent = c.best.scaled;
    st.search_best = c.best.scaled;
    st.location_of = locations_of(c.placement);
    out.push_back(st);
  }
  return out;
}

BnbProof BnbResult::overall() const {
  BnbProof all;
  all.optimal = complete;
  bool first = true;
  for (const ConfigurationProof& c : configurations) {
    all.optimal = all.optimal && c.proof.optimal;
    all.nodes += c.proof.nodes;
    all.seconds += c.proof.seconds;
    if (first || c.proof.root_bound.scaled < all.root_bound.scaled) all.root_bound = c.proof.root_bound;
    if (first || c.proof.best_bound.scaled < all.best_bound.scaled) all.best_bound = c.proof.best_bound;
    first = false;
  }
  all.seconds += search_seconds;
  return all;
}

int default_feeders_per_gpu(std::size_t threads, std::size_t gpus) {
  return gpus == 0 ? 1 : int(std::clamp<std::size_t>(threads / gpus, 1, 16));
}

std::vector<NodeEvaluator*> BnbRequest::devices_for(std::size_t threads) const {
  const std::vector<NodeEvaluator*>& out = evaluators;
  if (std::find(out.begin(), out.end(), nullptr) != out.end())
    throw Error(ErrorKind::Internal, "BnbRequest::evaluators holds a null evaluator");
  if (out.size() > threads)
    throw_usage(fmt::format("{} threads to feed the GPUs' node batches and {} thread(s) in all", out.size(), threads),
                fmt::format("give --threads {} or more, or fewer GPUs or --feeders", out.size()));
  return out;
}

BnbResult prove(const Problem& p, const BnbRequest& r, const BnbControl& ctl, ThreadPool& pool) {
  check_request(p, r);
  const std::vector<NodeEvaluator*> devices = r.devices_for(pool.size());
  const Clock::time_point start = Clock::now();
  const std::size_t nn = std::size_t(p.n) * std::size_t(p.n);
  BnbResult result;
  result.problem = &p;
  result.slice = p.summed_slice ? p.timestamps : 0;
  result.exact = true;
  result.decimals = p.decimals;
  result.threads = int(pool.size());
  result.device = fmt::format("CPU ({} thread{})", pool.size(), pool.size() == 1 ? "" : "s");
  if (!devices.empty()) {
    result.device += fmt::format(" + {} (batches)", describe_evaluators(devices));
  }

  const std::uint64_t fingerprint = bnb_fingerprint(p, r);
  const std::string description = bnb_description(p, r);
  std::vector<ConfigurationState> states;
  int sessions = 1;
  if (!r.resume.empty()) {
    BnbCheckpoint saved = read_bnb_checkpoint(r.resume, p, fingerprint, description);
    states = std::move(saved.configurations);
    sessions = saved.sessions + 1;
    result.notes.push_back(fmt::format("resumed from {} ({} earlier session(s))", r.resume, saved.sessions));
  } else {
    const Clock::time_point searching = Clock::now();
    states = search_incumbents(p, r, pool);
    result.search_seconds = seconds_since(searching);
  }
  result.sessions = sessions;
  // Under MPI the other ranks take subtrees too; whatever happens, they are sent Stop before prove returns.
  ProofRanks* ranks = r.ranks && r.ranks->ranks() > 1 ? r.ranks : nullptr;
  struct ReleaseRanks {
    ProofRanks* ranks;
    ~ReleaseRanks() {
      if (ranks) ranks->stop_all();
    }
  } release{ranks};
  if (ranks) {
    result.device += fmt::format(" on {} MPI ranks", ranks->ranks());
    ranks->start(fingerprint);
  }
  const std::string checkpoint = !r.checkpoint.empty() ? r.checkpoint : r.resume;
  const auto save = [&] {
    if (checkpoint.empty()) return;
    write_bnb_checkpoint(checkpoint, BnbCheckpoint{fingerprint, description, sessions, states});
  };

  std::atomic<bool> stop{false};
  std::uint64_t session_nodes = 0;
  for (ConfigurationState& st : states) {
    const int c = st.configuration;
    ConfigurationProof out;
    out.configuration = c;
    ProofTree tree(p.traffic_scaled.data() + std::size_t(result.slice) * nn, p.cost_scaled.data() + std::size_t(c) * nn,
                   p.n, r.reduced_cost_pruning);
    Incumbent incumbent(st.incumbent, st.location_of);
    {
      // A configuration reached after a stop still gets its frontier: its bound and root bound are reported.
      const Clock::time_point began = Clock::now();
      tree.build_frontier(pool);
      if (st.subtrees && st.subtrees != tree.subtrees())
        throw Error(ErrorKind::Io, fmt::format("checkpoint '{}' has {} subtrees for configuration {}, this build makes {}",
                                               r.resume, st.subtrees, c + 1, tree.subtrees()),
                    "resume with the kernelscope that wrote it, or start afresh without --resume");
      st.subtrees = tree.subtrees();
      st.root_bound = tree.root_bound();
      tree.mark_done(st.done, incumbent);
      tree.set_explored_nodes(st.explored);
      const double before_s = st.seconds;
      const std::uint64_t explored_before = st.explored;
      const auto snapshot = [&](bool final) {
        st.incumbent = incumbent.cost();
        st.location_of = incumbent.location_of();
        tree.finished_state(st.done, st.explored);
        st.seconds = before_s + seconds_since(began);
        st.bound = tree.open_bound(incumbent);
        st.finished = final && tree.open_subtrees() == 0;
        // The frontier, then every bound computed below it: this session's own (live: finished subtrees and
        // those under way) on top of the earlier sessions', or the finished subtrees' where more (other ranks'
        // nodes arrive only as their subtrees end).
        const std::uint64_t below = std::max(st.explored, explored_before + tree.live_nodes());
        add_point(st.curve, GapPoint{st.seconds, tree.subtrees() + below,
                                     cost_of(p, st.bound), cost_of(p, st.incumbent)});
      };
      snapshot(false);
      std::exception_ptr failure;
      std::atomic<bool> running{true};
      std::thread worker([&] {
        try {
          for (NodeEvaluator* e : devices) e->load(tree.traffic(), tree.costs(), p.n);
          tree.explore(pool, incumbent, stop, devices);
        } catch (...) {
          failure = std::current_exception();
          stop = true;
        }
        running = false;
      });
      Clock::time_point last_checkpoint = Clock::now(), last_progress = Clock::now();
      std::exception_ptr rank_failure;
      // Until this process's threads are done and (unless stopped) every subtree out on another rank reported.
      while (running.load() || (ranks && !stop.load() && ranks->outstanding())) {
        std::this_thread::sleep_for(std::chrono::duration<double>(ranks ? kRanksEvery_s : kProgressEvery_s));
        if (ranks && !rank_failure) {
          try {
            ranks->tick(c, tree, incumbent, stop.load());
          } catch (...) {  // a rank failed: stop this process's threads first, then report it
            rank_failure = std::current_exception();
            stop = true;
          }
        }
        if (seconds_since(last_progress) < kProgressEvery_s) continue;
        last_progress = Clock::now();
        if (ctl.cancel && ctl.cancel->load() && !stop.exchange(true)) result.stopped_by = "cancel";
        if (r.time_s > 0 && seconds_since(start) >= r.time_s && !stop.exchange(true)) result.stopped_by = "time";
        snapshot(false);
        if (ctl.progress) {
          BnbProgress pr;
          pr.configuration = int(&st - states.data());
          pr.configurations = int(states.size());
          pr.elapsed_s = st.seconds;
          pr.nodes = st.curve.back().nodes;
          pr.open = tree.open_subtrees();
          pr.subtrees = tree.subtrees();
          pr.bound = cost_of(p, st.bound);
          pr.incumbent = cost_of(p, st.incumbent);
          pr.fraction = 1.0 - double(pr.open) / double(std::max<std::uint64_t>(1, pr.subtrees));
          pr.curve = &st.curve;
          ctl.progress(pr);
        }
        if (seconds_since(last_checkpoint) >= r.checkpoint_every_s) {
          save();
          last_checkpoint = Clock::now();
        }
      }
      worker.join();
      if (failure) std::rethrow_exception(failure);
      if (rank_failure) {  // the checkpoint keeps what every rank finished
        snapshot(false);
        save();
        std::rethrow_exception(rank_failure);
      }
      snapshot(true);
      // This session's nodes: those of the subtrees finished, here or on other ranks (whose nodes this process
      // only learns of as their subtrees end), or this process's own where more (a stop leaves subtrees open).
      session_nodes += std::max(tree.live_nodes(), st.explored - explored_before);
      save();
    }
    out.best = cost_of(p, st.incumbent);
    out.placement = placement_of(st.location_of);
    for (int s = 0; s < p.slices; ++s) out.slice_costs.push_back(placement_cost(p, s, c, out.placement));
    out.search_best = cost_of(p, st.search_best);
    out.proof.optimal = st.finished;
    out.proof.nodes = st.subtrees + st.explored;
    out.proof.root_bound = cost_of(p, st.root_bound);
    out.proof.best_bound = cost_of(p, st.finished ? st.incumbent : st.bound);
    out.proof.seconds = st.seconds;
    out.frontier_depth = tree.frontier_depth();
    out.subtrees = st.subtrees;
    out.curve = st.curve;
    result.shared_pieces += tree.shared_pieces();
    result.configurations.push_back(std::move(out));
  }
  if (ranks) {
    std::string per_rank;
    for (int k = 1; k < ranks->ranks(); ++k)
      per_rank += fmt::format("{}rank {} {}", k > 1 ? ", " : "", k, ranks->finished()[std::size_t(k)]);
    result.notes.push_back("subtrees finished by the other ranks: " + per_rank);
    std::vector<std::string> names(ranks->names().begin() + 1, ranks->names().end());
    result.notes.push_back(fmt::format("the other ranks: {}", fmt::join(names, "; ")));
  }
  result.complete = !stop.load();
  if (!result.complete) result.checkpoint = checkpoint;
  for (std::size_t k = 1; k < result.configurations.size(); ++k)
    if (result.configurations[k].best.scaled < result.best().best.scaled) result.best_configuration = int(k);
  result.seconds = seconds_since(start);
  result.nodes_per_second = result.seconds > 0 ? double(session_nodes) / result.seconds : 0;
  for (const NodeEvaluator* e : devices) result.feeders.push_back({e->device(), e->time()});
  return result;
}

}  // namespace ks::topo
