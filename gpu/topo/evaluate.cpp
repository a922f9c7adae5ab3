// evaluate(): checks the request, cuts the work into batches, runs the passes on a backend (with progress,
// cancellation and timed repetitions) and turns the raw reductions into results.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "topo/random.hpp"
#include "topo/sweep_backend.hpp"

namespace ks::topo {

namespace {

inline constexpr int kMaxListedNodes = 255;  // placements of lists are bytes

struct Work {
  PlacementSource source;
  SweepPlan plan;
  std::vector<std::uint8_t> listed;
  std::uint64_t first = 0, end = 0;      // items
  std::uint64_t placements_per_item = 1;  // All: run size (boundary runs are partly outside the range)
  std::uint64_t placements = 0;           // in the request
};

std::string sci(long double v) { return fmt::format("{:.3g}", double(v)); }

std::string duration_text(double s) {
  if (s < 120) return fmt::format("{:.1f} s", s);
  if (s < 7200) return fmt::format("{:.1f} minutes", s / 60);
  if (s < 172800) return fmt::format("{:.1f} hours", s / 3600);
  if (s < 3.15e8) return fmt::format("{:.1f} days", s / 86400);
  return fmt::format("{:.2g} years", s / 3.156e7);
}

void check_request(const Problem& p, const EvalRequest& r) {
  if (r.repeat < 1) throw_usage(fmt::format("repeat {} must be at least 1", r.repeat));
  if (r.warmup < 0) throw_usage(fmt::format("warmup {} must be 0 or more", r.warmup));
  if (r.top_k < 0 || r.top_k > 1000) throw_usage(fmt::format("top {} is outside 0 .. 1000", r.top_k));
  if (r.backend == Backend::Cuda &&
      (r.block_threads < 32 || r.block_threads > 1024 || r.block_threads % 32))
    throw_usage(fmt::format("{} threads per block: use a multiple of 32 from 32 to 1024", r.block_threads));
  const std::string v = r.variant;
  if (r.backend == Backend::Cpu && !v.empty() && v != "cpu")
    throw_usage("variant '" + v + "' runs on CUDA", "use --backend cuda, or no --variant for the CPU");
  if (r.backend == Backend::Cuda && !v.empty() && v != "naive" && v != "delta")
    throw_usage("unknown CUDA variant '" + v + "'", "the topology sweep has the CUDA variants naive and delta");
  if (r.mode != PlacementMode::All && p.n > kMaxListedNodes)
    throw_usage(fmt::format("{} nodes; placements are evaluated for at most {}", p.n, kMaxListedNodes));
}

[[noreturn]] void too_many_placements(const Problem& p, const EvalRequest& r, ThreadPool& pool, CudaContext* cuda) {
  const SweepEstimate e = estimate_exhaustive(p, r, pool, cuda);
  throw_usage(
      fmt::format("an exhaustive sweep of {} nodes is {}! = {} placements x {} slices x {} configurations; at the "
                  "{} evaluations/s measured here on a smaller instance it would take about {}",
                  p.n, p.n, sci(e.placements_exact), p.slices, p.configs, sci(e.evaluations_per_second),
                  duration_text(e.seconds)),
      fmt::format("exhaustive sweeps go up to n = {}; use --placements sample:N for N uniformly random placements "
                  "(e.g. sample:1000000), or identity, or a file of placements",
                  kMaxExhaustiveNodes));
}

Work plan_work(const Problem& p, const EvalRequest& r, ThreadPool& pool, CudaContext* cuda) {
  Work w;
  w.source.mode = r.mode;
  switch (r.mode) {
    case PlacementMode::All: {
      if (p.n > kMaxExhaustiveNodes) too_many_placements(p, r, pool, cuda);
      const std::uint64_t total = factorial(p.n);
      const std::uint64_t end = r.range_end == 0 ? total : r.range_end;
      if (r.range_begin >= end || end > total)
        throw_usage(fmt::format("placement range {}:{} is not inside 0:{} ({}! placements)", r.range_begin, end, total, p.n),
                    "give --range START:END with START < END <= n!");
      w.plan = plan_sweep(p.n, r.range_begin, end, p.pairs());
      w.first = w.plan.first_run;
      w.end = w.plan.end_run;
      w.placements_per_item = w.plan.run_size;
      w.placements = end - r.range_begin;
      break;
    }
    case PlacementMode::Sample:
      if (r.samples < 1) throw_usage("sample:N needs N >= 1");
      w.source.seed = r.seed;
      w.end = w.placements = r.samples;
      break;
    case PlacementMode::Given:
      if (r.placements.empty()) throw_usage("no placement given");
      for (std::size_t i = 0; i < r.placements.size(); ++i) {
        check_placement(r.placements[i], p.n, fmt::format("placement {}", i + 1));
        w.listed.insert(w.listed.end(), r.placements[i].begin(), r.placements[i].end());
      }
      w.end = w.placements = r.placements.size();
      break;
  }
  if (r.cube_limit_bytes) {
    const long double bytes = (long double)w.placements * p.pairs() * 8;
    if (bytes > (long double)r.cube_limit_bytes)
      throw_usage(fmt::format("all costs would take {} MB ({} placements x {} slices x {} configurations x 8 bytes), "
                              "over the limit of {} MB",
                              sci(bytes / 1e6), w.placements, p.slices, p.configs, sci((long double)r.cube_limit_bytes / 1e6)),
                  "raise the limit, or narrow the sweep with --range");
  }
  return w;
}

std::vector<HistogramBins> bins_of(const Problem& p, const std::vector<RawStats>& stats) {
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

class Runner {
 public:
  Runner(const Problem& p, const EvalRequest& r, const EvalControl& ctl, SweepBackend& backend, Work& work)
      : p_(p), r_(r), ctl_(ctl), backend_(backend), work_(work) {
    const std::uint64_t per_item_sweep = work.placements_per_item * p.pairs();
    const std::uint64_t batch = r.batch_evaluations ? r.batch_evaluations : backend.default_batch_evaluations();
    batch_items_ = std::max<std::uint64_t>(1, batch / std::max<std::uint64_t>(per_item_sweep, 1));
    const std::uint64_t per_rep = work.placements * p.pairs() * (1 + (r.histogram || (r.top_k && r.backend == Backend::Cuda) ? 1 : 0) + (r.cube_limit_bytes ? 1 : 0)) +
                                  (r.top_k ? work.placements * std::uint64_t(p.configs) : 0);
    total_ = per_rep * std::uint64_t(r.warmup + r.repeat);
  }

  // One pass over all batches; false when cancelled (after `done_items` items).
  bool pass(Pass pass, PassIo& io, std::vector<double>& times, bool timed, std::uint64_t* done_end = nullptr) {
    double ms = 0;
    const std::uint64_t evals_per_placement = pass == Pass::Top ? std::uint64_t(p_.configs) : p_.pairs();
    const char* name = pass == Pass::Stats ? "sweep" : pass == Pass::Histogram ? "histogram" : pass == Pass::Top ? "top" : "cube";
    for (std::uint64_t a = work_.first; a < work_.end;) {
      if (ctl_.cancel && ctl_.cancel->load()) return false;
      const std::uint64_t b = std::min(work_.end, a + batch_items_);
      ms += backend_.run(pass, work_.source, a, b, io);
      if (done_end) *done_end = b;
      done_ += placements_in(a, b) * evals_per_placement;
      if (ctl_.progress) ctl_.progress({done_, total_, clock_.elapsed_ms() / 1000.0, name});
      a = b;
    }
    if (timed) times.push_back(ms);
    return true;
  }

  std::uint64_t placements_in(std::uint64_t a, std::uint64_t b) const {
    return work_.source.mode == PlacementMode::All ? work_.plan.placements_in(a, b) : b - a;
  }

 private:
  const Problem& p_;
  const EvalRequest& r_;
  const EvalControl& ctl_;
  SweepBackend& backend_;
  Work& work_;
  std::uint64_t batch_items_ = 1, done_ = 0, total_ = 0;
  Stopwatch clock_;
};

std::vector<int> placement_of_key(const Problem& p, const Work& w, const EvalRequest& r, std::uint64_t key,
                                  std::uint64_t& index) {
  std::vector<int> out(std::size_t(p.n));
  if (r.mode == PlacementMode::All) {
    index = index_of_code(key, p.n);
    for (int i = 0; i < p.n; ++i) out[std::size_t(i)] = node_at(key, i);
  } else if (r.mode == PlacementMode::Sample) {
    index = key;
    std::vector<std::uint8_t> pl(std::size_t(p.n));
    SplitMix64 rng = sample_stream(r.seed, key);
    random_placement(rng, pl.data(), p.n);
    out.assign(pl.begin(), pl.end());
  } else {
    index = key;
    out.assign(w.listed.begin() + std::ptrdiff_t(key * std::uint64_t(p.n)),
               w.listed.begin() + std::ptrdiff_t((key + 1) * std::uint64_t(p.n)));
  }
  return out;
}

Cost cost_of(const Problem& p, std::int64_t scaled, double real) {
  Cost c;
  if (p.exact) {
    c.scaled = scaled;
    c.value = p.cost_value(scaled);
  } else {
    c.value = real;
  }
  return c;
}

}  // namespace

EvalResult evaluate(const Problem& p, const EvalRequest& r, const EvalControl& ctl, ThreadPool& pool,
                    CudaContext* cuda) {
  check_request(p, r);
  Work work = plan_work(p, r, pool, cuda);
  work.source.plan = &work.plan;
  work.source.listed = &work.listed;
  std::unique_ptr<SweepBackend> backend;
  if (r.backend == Backend::Cpu) {
    backend = make_cpu_backend(p, pool);
  } else {
    if (!cuda) throw Error(ErrorKind::Device, "no CUDA context", "use --backend cpu");
    backend = make_cuda_backend(p, *cuda, r.variant.empty() ? "delta" : r.variant, r.block_threads);
  }

  EvalResult res;
  res.problem = &p;
  res.mode = r.mode;
  res.exact = p.exact;
  res.decimals = p.decimals;
  if (!p.exact) res.notes.push_back("costs are summed in double: " + p.real_reason);
  res.top_slice = p.summed_slice ? p.timestamps : 0;
  const std::size_t pairs = std::size_t(p.pairs());

  Runner runner(p, r, ctl, *backend, work);
  std::vector<double> t_sweep, t_hist, t_top, t_cube;
  std::vector<RawStats> stats;
  std::vector<std::array<std::uint64_t, kHistogramBins>> counts;
  std::vector<HistogramBins> bins;
  std::vector<Candidate> top;
  bool have_hist = false, have_top = false, have_cube = false;
  std::uint64_t done_end = work.first;
  bool cancelled = false;
  for (int rep = 0; rep < r.warmup + r.repeat && !cancelled; ++rep) {
    const bool timed = rep >= r.warmup;
    stats.assign(pairs, RawStats{});
    have_hist = have_top = have_cube = false;
    PassIo io;
    io.stats = &stats;
    io.histogram_follows = r.histogram || (r.top_k && r.backend == Backend::Cuda);
    if (!runner.pass(Pass::Stats, io, t_sweep, timed, &done_end)) {
      cancelled = true;
      break;
    }
    // The CUDA top pass keeps only costs in the histogram's lowest bins that can hold the top K: it needs them.
    if (r.histogram || (r.top_k && r.backend == Backend::Cuda)) {
      bins = bins_of(p, stats);
      counts.assign(pairs, {});
      io.bins = &bins;
      io.counts = &counts;
      if (!(have_hist = runner.pass(Pass::Histogram, io, t_hist, timed))) cancelled = true;
      if (!r.histogram) have_hist = false;
    }
    if (r.top_k && !cancelled) {
      top.clear();
      io.top = &top;
      io.top_k = r.top_k;
      io.top_slice = res.top_slice;
      if (!(have_top = runner.pass(Pass::Top, io, t_top, timed))) cancelled = true;
    }
    if (r.cube_limit_bytes && !cancelled) {
      const std::size_t cells = std::size_t(work.placements) * pairs;
      if (p.exact) res.cube_scaled.assign(cells, 0); else res.cube_real.assign(cells, 0.0);
      io.cube_i = res.cube_scaled.data();
      io.cube_d = res.cube_real.data();
      io.cube_first = r.mode == PlacementMode::All ? r.range_begin : 0;
      if (!(have_cube = runner.pass(Pass::Cube, io, t_cube, timed))) cancelled = true;
    }
  }
  if (!have_cube) {
    res.cube_scaled.clear();
    res.cube_real.clear();
  }

  // What was evaluated.
  res.complete = !cancelled;
  if (r.mode == PlacementMode::All) {
    res.range_begin = work.plan.lo;
    res.range_end = work.plan.hi;
    res.evaluated_end = std::max(work.plan.lo, work.plan.end_index(done_end));
    res.placements = res.evaluated_end - res.range_begin;
  } else {
    res.range_end = work.placements;
    res.evaluated_end = done_end;
    res.placements = done_end;
  }
  res.evaluations = res.placements * p.pairs();

  res.slices.resize(pairs);
  for (int s = 0; s < p.slices; ++s)
    for (int c = 0; c < p.configs; ++c) {
      const std::size_t k = std::size_t(s) * std::size_t(p.configs) + std::size_t(c);
      SliceResult& out = res.slices[k];
      out.slice = s;
      out.configuration = c;
      const RawStats& st = stats.empty() ? RawStats{} : stats[k];
      out.count = st.count;
      if (st.count == 0) continue;
      out.min = cost_of(p, st.min_i, st.min_d);
      out.max = cost_of(p, st.max_i, st.max_d);
      out.mean = p.exact ? double(st.sum_i.value() / (long double)st.count) / std::pow(10.0, p.decimals)
                         : st.sum_d / double(st.count);
      out.placement = placement_of_key(p, work, r, st.key, out.argmin);
      if (have_hist) {
        Histogram h;
        h.lo = cost_of(p, bins[k].lo_i, bins[k].lo_d);
        h.width = cost_of(p, bins[k].width_i, bins[k].width_d);
        h.counts = counts[k];
        out.histogram = h;
      }
    }
  if (have_top) {
    std::sort(top.begin(), top.end(), [&](const Candidate& a, const Candidate& b) { return candidate_less(a, b, p.exact); });
    if (int(top.size()) > r.top_k) top.resize(std::size_t(r.top_k));
    for (const Candidate& c : top) {
      RankedPlacement rp;
      rp.cost = cost_of(p, c.cost_i, c.cost_d);
      rp.configuration = c.configuration;
      rp.placement = placement_of_key(p, work, r, c.key, rp.index);
      res.top.push_back(std::move(rp));
    }
  }

  EvalTiming& t = res.timing;
  t.device = backend->device();
  t.variant = r.backend == Backend::Cpu ? "cpu" : (r.variant.empty() ? "delta" : r.variant);
  t.upload_ms = backend->upload_ms();
  t.download_ms = backend->download_ms();
  t.launch = backend->launch_description();
  t.sweep = {TimingStats::of(t_sweep), work.placements * p.pairs()};
  t.histogram = {TimingStats::of(t_hist), r.histogram ? work.placements * p.pairs() : 0};
  t.top = {TimingStats::of(t_top), r.top_k ? work.placements * std::uint64_t(p.configs) : 0};
  t.cube = {TimingStats::of(t_cube), r.cube_limit_bytes ? work.placements * p.pairs() : 0};
  if (t.sweep.time.median_ms > 0) t.evaluations_per_second = double(t.sweep.evaluations) / (t.sweep.time.median_ms / 1e3);
  return res;
}

BestPlacement best_overall(const EvalResult& r) {
  BestPlacement best;
  bool any = false;
  for (const SliceResult& s : r.slices) {
    if (s.count == 0 || (r.problem->summed_slice && s.slice == r.problem->timestamps)) continue;
    const bool better = !any || (r.exact ? s.min.scaled < best.cost.scaled : s.min.value < best.cost.value);
    if (!better) continue;  // slices come in (timestamp, configuration) order: the first of equals stays
    any = true;
    best = {s.min, s.slice, s.configuration, s.argmin, s.placement};
  }
  return best;
}

std::vector<BestPlacement> best_per_timestamp(const EvalResult& r) {
  std::vector<BestPlacement> out;
  for (int t = 0; t < r.problem->timestamps; ++t) {
    BestPlacement best;
    bool any = false;
    for (int c = 0; c < r.problem->configs; ++c) {
      const SliceResult& s = r.at(t, c);
      if (s.count == 0) continue;
      if (any && !(r.exact ? s.min.scaled < best.cost.scaled : s.min.value < best.cost.value)) continue;
      any = true;
      best = {s.min, t, c, s.argmin, s.placement};
    }
    if (any) out.push_back(best);
  }
  return out;
}

std::optional<BestPlacement> best_over_time(const EvalResult& r) {
  if (!r.problem->summed_slice) return std::nullopt;
  std::optional<BestPlacement> best;
  for (int c = 0; c < r.problem->configs; ++c) {
    const SliceResult& s = r.at(r.problem->timestamps, c);
    if (s.count == 0) continue;
    if (best && !(r.exact ? s.min.scaled < best->cost.scaled : s.min.value < best->cost.value)) continue;
    best = BestPlacement{s.min, s.slice, c, s.argmin, s.placement};
  }
  return best;
}

}  // namespace ks::topo
