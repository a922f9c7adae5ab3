// search(): one configuration after another, each a set of chains on a backend advanced a sync interval at a
// time; between intervals the host keeps the elites (the best distinct placements seen), the best and its
// convergence curve, restarts stalled chains from perturbed elites (in chain order, from each chain's own
// restart stream) and decides whether to stop.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "topo/search/search_backend.hpp"
#include "topo/search/search_plan.hpp"

namespace ks::topo {

namespace {

struct Elite {
  std::int64_t cost_i = 0;
  double cost_d = 0;
  std::vector<std::uint16_t> placement;
};

// A chain's best across its restarts (breakout, restart_from = record): its header at the stall that found it,
// its placement (record only) and the restarts in a row since that have not beaten it.
struct ChainRecord {
  std::optional<ChainHeader> best;
  std::vector<std::uint16_t> placement;
  int failed = 0;
};

class ConfigurationRun {
 public:
  ConfigurationRun(const Problem& p, const SearchRequest& r, int configuration, ThreadPool& pool,
                   CudaContext* cuda)
      : p_(p), r_(r), configuration_(configuration) {
    setup_.problem = &p;
    setup_.slice = optimised_slice(p);
    setup_.configuration = configuration;
    setup_.algorithm = r.params.algorithm;
    setup_.arithmetic = choose_arithmetic(p, setup_.slice, configuration);
    setup_.matrix_bits =
        choose_matrix_bits(p, setup_.slice, configuration, setup_.arithmetic, r.params.matrix_bits);
    setup_.step = step_settings(p, setup_.slice, configuration, r.params, r.seed);
    setup_.chains = r.params.chains;
    setup_.block = r.params.block;
    if (r.backend == Backend::Cuda) {
      if (!cuda) throw Error(ErrorKind::Device, "no CUDA context for the search", "use the CPU backend");
      backend_ = make_cuda_search(setup_, *cuda);
    } else {
      backend_ = make_cpu_search(setup_, pool);
    }
    chains_ = backend_->chains();
    sync_ = sync_steps(r.params, p.n);
    stall_ = stall_steps(r.params, setup_.step);
    known_best_iteration_.assign(std::size_t(chains_), -1);
    restarts_of_.assign(std::size_t(chains_), 0);
    records_.assign(std::size_t(chains_), ChainRecord{});

    std::vector<int> all(static_cast<std::size_t>(chains_));
    std::vector<std::uint16_t> placements;
    std::vector<ChainHeader> headers(static_cast<std::size_t>(chains_));
    for (int c = 0; c < chains_; ++c) {
      all[std::size_t(c)] = c;
      SplitMix64 start = start_stream(r.seed, configuration, c);
      const auto placement = random_start(start, p.n);
      placements.insert(placements.end(), placement.begin(), placement.end());
      headers[std::size_t(c)].rng = chain_stream(r.seed, configuration, c).state;
    }
    backend_->set_chains(all, placements, headers);
  }

  int sync() const { return sync_; }
  // The steps of the next interval: 1, 2, 4, ... up to the sync interval, so that the curve shows the first
  // fast descent too (a function of n alone, like the sync interval: the same on both backends).
  int next_interval() const {
    return int(std::min<std::int64_t>(sync_, std::int64_t(1) << std::min(intervals_, 30)));
  }
  int chains() const { return chains_; }
  SearchBackend& backend() { return *backend_; }
  const SearchSetup& setup() const { return setup_; }
  double elapsed_s() const { return clock_.elapsed_ms() / 1e3; }
  std::uint64_t iterations() const { return iterations_; }
  bool has_best() const { return !elites_.empty(); }
  Cost best_cost() const { return cost_of(elites_.front()); }
  const std::vector<int>& best_placement() const { return best_placement_; }
  const std::vector<ConvergencePoint>& curve() const { return curve_; }

  // Every chain `steps` steps, then elites, best and restarts. True when the best improved.
  bool interval(int steps) {
    std::vector<std::int64_t> before(static_cast<std::size_t>(chains_));
    for (int c = 0; c < chains_; ++c) before[std::size_t(c)] = backend_->headers()[std::size_t(c)].iteration;
    const double t0 = elapsed_s();
    const std::uint64_t iterations0 = iterations_;
    backend_->advance(steps);
    ++intervals_;
    const double t1 = elapsed_s();
    iterations_ += std::uint64_t(steps) * std::uint64_t(chains_);
    const std::vector<ChainHeader>& h = backend_->headers();

    // Chains whose best changed, best first: only the first `elites` can enter the elites.
    std::vector<int> changed;
    for (int c = 0; c < chains_; ++c)
      if (h[std::size_t(c)].best_iteration != known_best_iteration_[std::size_t(c)]) {
        changed.push_back(c);
        known_best_iteration_[std::size_t(c)] = h[std::size_t(c)].best_iteration;
      }
    std::stable_sort(changed.begin(), changed.end(),
                     [&](int a, int b) { return less(h[std::size_t(a)], h[std::size_t(b)]); });
    bool improved = false;
    const std::size_t capacity = std::size_t(r_.params.elites);
    for (std::size_t k = 0; k < changed.size() && k < capacity; ++k) {
      const ChainHeader& ch = h[std::size_t(changed[k])];
      Elite e{ch.best_i, ch.best_d, {}};
      if (elites_.size() == capacity && !less(e, elites_.back())) break;
      e.placement = backend_->placement(changed[k], true);
      if (std::any_of(elites_.begin(), elites_.end(),
                      [&](const Elite& x) { return x.placement == e.placement; }))
        continue;
      const auto at = std::upper_bound(elites_.begin(), elites_.end(), e,
                                       [&](const Elite& a, const Elite& b) { return less(a, b); });
      const bool new_best = at == elites_.begin();
      elites_.insert(at, e);
      if (elites_.size() > capacity) elites_.pop_back();
      if (new_best) {
        improved = true;
        const double f =
            std::clamp(double(ch.best_iteration - before[std::size_t(changed[k])]) / double(steps), 0.0, 1.0);
        time_to_best_ = t0 + (t1 - t0) * f;
        iterations_to_best_ = iterations0 + std::uint64_t(f * double(steps) * double(chains_));
        best_placement_.assign(elites_.front().placement.begin(), elites_.front().placement.end());
      }
    }
    if (improved) curve_.push_back({time_to_best_, iterations_to_best_, best_cost()});
    restart_stalled(h);
    return improved;
  }

  ConfigurationSearch finish(bool reached_target) {
    ConfigurationSearch out;
    out.configuration = configuration_;
    out.placement = best_placement_;
    out.best = placement_cost(p_, setup_.slice, configuration_, out.placement);
    if (p_.exact && out.best.scaled != elites_.front().cost_i)
      throw Error(ErrorKind::Internal,
                  fmt::format("the search tracked cost {} for its best placement, which costs {}",
                              elites_.front().cost_i, out.best.scaled));
    for (int s = 0; s < p_.slices; ++s)
      out.slice_costs.push_back(placement_cost(p_, s, configuration_, out.placement));
    out.time_to_best_s = time_to_best_;
    out.iterations_to_best = iterations_to_best_;
    out.iterations = iterations_;
    out.evaluations =
        iterations_ * (setup_.algorithm == SearchAlgorithm::Tabu ? std::uint64_t(setup_.step.pairs) : 1u);
    out.restarts = restarts_;
    out.seconds = elapsed_s();
    out.reached_target = reached_target;
    out.curve = curve_;
    out.curve.push_back({out.seconds, iterations_, out.best});
    return out;
  }

 private:
  bool less(const ChainHeader& a, const ChainHeader& b) const {
    return p_.exact ? a.best_i < b.best_i : a.best_d < b.best_d;
  }
  bool less(const Elite& a, const Elite& b) const {
    return p_.exact ? a.cost_i < b.cost_i : a.cost_d < b.cost_d;
  }
  Cost cost_of(const Elite& e) const {
    Cost c;
    c.scaled = p_.exact ? e.cost_i : 0;
    c.value = p_.exact ? p_.cost_value(e.cost_i) : e.cost_d;
    return c;
  }

  void restart_stalled(const std::vector<ChainHeader>& h) {
    if (elites_.empty()) return;
    std::vector<int> which;
    std::vector<std::uint16_t> placements;
    std::vector<ChainHeader> headers;
    for (int c = 0; c < chains_; ++c) {
      const ChainHeader& ch = h[std::size_t(c)];
      if (ch.iteration - ch.best_iteration < stall_) continue;
      const int failed = note_record(c, ch);
      SplitMix64 rng = restart_stream(r_.seed, configuration_, c, restarts_of_[std::size_t(c)]++);
      std::vector<std::uint16_t> placement = restart_placement(c, rng);
      perturb(placement, rng, restart_swap_count(r_.params, p_.n, failed));
      which.push_back(c);
      placements.insert(placements.end(), placement.begin(), placement.end());
      ChainHeader next = ch;
      next.fresh = 1;
      headers.push_back(next);
    }
    if (which.empty()) return;
    restarts_ += which.size();
    backend_->set_chains(which, placements, headers);
  }

  // A stalled chain's best against its record, where breakout or restart_from = record needs it (a restart's
  // best starts afresh on the chain, so the record is kept here): the restarts in a row that have not beaten it.
  int note_record(int chain, const ChainHeader& stalled) {
    const bool breakout = r_.params.perturb_max > r_.params.perturb;
    const bool from_record = r_.params.restart_from == RestartFrom::Record;
    if (!breakout && !from_record) return 0;
    ChainRecord& record = records_[std::size_t(chain)];
    if (!record.best || less(stalled, *record.best)) {
      record.best = stalled;
      record.failed = 0;
      if (from_record) record.placement = backend_->placement(chain, true);
    } else {
      ++record.failed;
    }
    return record.failed;
  }

  std::vector<std::uint16_t> restart_placement(int chain, SplitMix64& rng) {
    switch (r_.params.restart_from) {
      case RestartFrom::Own: return backend_->placement(chain, true);
      case RestartFrom::Elites: return elites_[rng.below(std::uint32_t(elites_.size()))].placement;
      case RestartFrom::Record: return records_[std::size_t(chain)].placement;
      case RestartFrom::Cross: {
        const auto& elite = elites_[rng.below(std::uint32_t(elites_.size()))].placement;
        return crossover(backend_->placement(chain, true), elite, rng);
      }
    }
    return backend_->placement(chain, true);
  }

  const Problem& p_;
  const SearchRequest& r_;
  int configuration_;
  SearchSetup setup_;
  std::unique_ptr<SearchBackend> backend_;
  int chains_ = 0, sync_ = 1, intervals_ = 0;
  std::int64_t stall_ = 1;
  std::vector<std::int64_t> known_best_iteration_;
  std::vector<std::uint64_t> restarts_of_;
  std::vector<ChainRecord> records_;
  std::vector<Elite> elites_;
  std::vector<int> best_placement_;
  std::vector<ConvergencePoint> curve_;
  double time_to_best_ = 0;
  std::uint64_t iterations_ = 0, iterations_to_best_ = 0, restarts_ = 0;
  Stopwatch clock_;
};

bool at_most(const Cost& c, double target) {
  return c.value <= target;
}

}  // namespace

SearchResult search(const Problem& p, const SearchRequest& r, const SearchControl& control, ThreadPool& pool,
                    CudaContext* cuda) {
  check_search(p, r);
  SearchResult res;
  res.problem = &p;
  res.params = r.params;
  res.slice = optimised_slice(p);
  res.exact = p.exact;
  res.decimals = p.decimals;
  if (!p.exact) res.notes.push_back("costs are summed in double: " + p.real_reason);
  if (p.summed_slice)
    res.notes.push_back(fmt::format("optimised on the traffic summed over the {} timestamps", p.timestamps));
  const double budget = r.time_s > 0 ? r.time_s / p.configs : 0;
  Stopwatch total;
  std::uint64_t iterations = 0, evaluations = 0;
  std::vector<std::string> arithmetic;
  for (int c = 0; c < p.configs && res.complete; ++c) {
    ConfigurationRun run(p, r, c, pool, cuda);
    res.device = run.backend().device();
    res.launch = run.backend().launch();
    res.chains = run.chains();
    res.sync = run.sync();
    const std::string a = to_string(run.setup().arithmetic);
    if (std::find(arithmetic.begin(), arithmetic.end(), a) == arithmetic.end()) arithmetic.push_back(a);
    std::uint64_t steps_done = 0;
    bool reached = false;
    for (;;) {
      int steps = run.next_interval();
      if (r.iterations) steps = int(std::min<std::uint64_t>(std::uint64_t(steps), r.iterations - steps_done));
      const bool improved = run.interval(steps);
      steps_done += std::uint64_t(steps);
      const double elapsed = run.elapsed_s();
      reached = r.target && at_most(run.best_cost(), *r.target);
      if (control.progress) {
        SearchProgress pr;
        pr.configuration = c;
        pr.configurations = p.configs;
        pr.elapsed_s = elapsed;
        const double by_time = budget > 0 ? std::min(1.0, elapsed / budget) : 0;
        const double by_steps = r.iterations ? double(steps_done) / double(r.iterations) : 0;
        pr.fraction = (c + std::max(by_time, by_steps)) / p.configs;
        pr.iterations = run.iterations();
        pr.best = run.best_cost();
        pr.improved = improved;
        pr.placement = &run.best_placement();
        pr.curve = &run.curve();
        control.progress(pr);
      }
      if (control.cancel && control.cancel->load()) {
        res.complete = false;
        res.stopped_by = "cancel";
        break;
      }
      if (reached) {
        res.stopped_by = "target";
        break;
      }
      if (r.iterations && steps_done >= r.iterations) {
        res.stopped_by = "iterations";
        break;
      }
      if (budget > 0 && elapsed >= budget) {
        res.stopped_by = "time";
        break;
      }
    }
    res.configurations.push_back(run.finish(reached));
    iterations += res.configurations.back().iterations;
    evaluations += res.configurations.back().evaluations;
  }
  res.seconds = total.elapsed_ms() / 1e3;
  for (std::size_t k = 0; k < arithmetic.size(); ++k) res.arithmetic += (k ? ", " : "") + arithmetic[k];
  for (std::size_t k = 1; k < res.configurations.size(); ++k) {
    const auto& a = res.configurations[k].best;
    const auto& b = res.configurations[std::size_t(res.best_configuration)].best;
    if (p.exact ? a.scaled < b.scaled : a.value < b.value) res.best_configuration = int(k);
  }
  if (res.seconds > 0) {
    res.iterations_per_second = double(iterations) / res.seconds;
    res.evaluations_per_second = double(evaluations) / res.seconds;
  }
  return res;
}

std::vector<std::vector<ChainSnapshot>> trace_chains(const Problem& p, const SearchRequest& r, int intervals,
                                                     ThreadPool& pool, CudaContext* cuda) {
  check_search(p, r);
  ConfigurationRun run(p, r, 0, pool, cuda);
  std::vector<std::vector<ChainSnapshot>> out;
  for (int i = 0; i < intervals; ++i) {
    run.interval(run.next_interval());
    std::vector<ChainSnapshot> row;
    for (int c = 0; c < run.chains(); ++c) {
      const ChainHeader& h = run.backend().headers()[std::size_t(c)];
      ChainSnapshot s;
      s.cost_i = h.cost_i;
      s.best_i = h.best_i;
      s.cost_d = h.cost_d;
      s.best_d = h.best_d;
      s.rng = h.rng;
      s.iteration = h.iteration;
      s.best_iteration = h.best_iteration;
      s.tenure = h.tenure;
      const auto now = run.backend().placement(c, false), best = run.backend().placement(c, true);
      s.placement.assign(now.begin(), now.end());
      s.best_placement.assign(best.begin(), best.end());
      row.push_back(std::move(s));
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace ks::topo
