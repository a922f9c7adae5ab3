// Planning a sweep request: its checks, its items, its chunks and its passes.
#include "topo/sweep/sweep_work.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/timing.hpp"

namespace ks::topo {

namespace {

std::string sci(long double v) { return fmt::format("{:.3g}", double(v)); }


[[noreturn]] void too_many_placements(const Problem& p, const EvalRequest& r, ThreadPool& pool, CudaContext* cuda) {
  const SweepEstimate e = estimate_exhaustive(p, r, pool, cuda);
  throw_usage(
      fmt::format("an exhaustive sweep of {} nodes is {}! = {} placements x {} slices x {} configurations; at the "
                  "{} evaluations/s measured here on a smaller instance it would take about {}",
                  p.n, p.n, sci(e.placements_exact), p.slices, p.configs, sci(e.evaluations_per_second),
                  duration_words(e.seconds)),
      fmt::format("exhaustive sweeps go up to n = {}; use --placements sample:N for N uniformly random placements "
                  "(e.g. sample:1000000), or identity, or a file of placements",
                  kMaxExhaustiveNodes));
}

}  // namespace

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
      w.plan = plan_sweep(p.n, r.range_begin, end, p.pairs(), r.shape);
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
  return w;  // the caller binds it where it keeps it
}

ChunkLayout chunk_layout(const Problem& p, const Work& w, std::uint64_t chunk_evaluations) {
  const std::uint64_t per_item = std::max<std::uint64_t>(w.placements_per_item * p.pairs(), 1);
  ChunkLayout c;
  c.first = w.first;
  c.end = w.end;
  c.per_chunk = std::max<std::uint64_t>(1, chunk_evaluations / per_item);
  return c;
}

PassPlan pass_plan(const EvalRequest& r) {
  PassPlan pp;
  // The CUDA top pass keeps only costs in the histogram's lowest bins that can hold the top K: it needs them.
  pp.histogram = r.histogram || (r.top_k && r.backend == Backend::Cuda);
  pp.keep_histogram = r.histogram;
  pp.top = r.top_k > 0;
  pp.cube = r.cube_limit_bytes > 0;
  return pp;
}

std::uint64_t evaluations_per_placement(const Problem& p, Pass pass) {
  return pass == Pass::Top ? std::uint64_t(p.configs) : p.pairs();
}

long double evaluations_over_passes(const Problem& p, const EvalRequest& r, long double placements) {
  const PassPlan plan = pass_plan(r);
  long double per_placement = (long double)evaluations_per_placement(p, Pass::Stats);
  if (plan.histogram) per_placement += (long double)evaluations_per_placement(p, Pass::Histogram);
  if (plan.top) per_placement += (long double)evaluations_per_placement(p, Pass::Top);
  if (plan.cube) per_placement += (long double)evaluations_per_placement(p, Pass::Cube);
  return placements * per_placement;
}

std::string passes_text(const EvalRequest& r) {
  const PassPlan plan = pass_plan(r);
  std::string s = pass_name(Pass::Stats);
  for (Pass q : {Pass::Histogram, Pass::Top, Pass::Cube})
    if ((q == Pass::Histogram && plan.histogram) || (q == Pass::Top && plan.top) || (q == Pass::Cube && plan.cube))
      s += std::string(" + ") + pass_name(q);
  return s;
}

const char* pass_name(Pass pass) {
  switch (pass) {
    case Pass::Stats: return "sweep";
    case Pass::Histogram: return "histogram";
    case Pass::Top: return "top";
    default: return "cube";
  }
}

}  // namespace ks::topo
