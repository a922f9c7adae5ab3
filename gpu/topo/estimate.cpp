// How long an exhaustive sweep would take: measured on a smaller instance (the first m nodes and positions of
// the same problem) with the same backend, then scaled. The delta evaluation costs O(n) per placement, so the
// rate is scaled by (m - 1) / (n - 1).
#include <cmath>

#include "core/timing.hpp"
#include "topo/sweep/sweep_backend.hpp"
#include "topo/sweep/sweep_work.hpp"

namespace ks::topo {

namespace {

template <class T>
std::vector<T> leading_block(const std::vector<T>& all, int n, int m, int count) {
  std::vector<T> out;
  for (int k = 0; k < count; ++k)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j)
        out.push_back(all[(std::size_t(k) * std::size_t(n) + std::size_t(i)) * std::size_t(n) + std::size_t(j)]);
  return out;
}

}  // namespace

SweepEstimate estimate_exhaustive(const Problem& p, const EvalRequest& request, ThreadPool& pool, CudaContext* cuda) {
  SweepEstimate e;
  e.placements_exact = std::tgamma((long double)p.n + 1);
  e.placements = p.n <= 20 ? factorial(p.n) : ~std::uint64_t(0);
  const int m = std::min(p.n, 10);
  Problem small = p;
  small.n = m;
  if (p.exact) {
    small.traffic_scaled = leading_block(p.traffic_scaled, p.n, m, p.slices);
    small.cost_scaled = leading_block(p.cost_scaled, p.n, m, p.configs);
  } else {
    small.traffic_real = leading_block(p.traffic_real, p.n, m, p.slices);
    small.cost_real = leading_block(p.cost_real, p.n, m, p.configs);
  }
  std::unique_ptr<SweepBackend> backend =
      request.backend == Backend::Cuda && cuda ? make_cuda_backend(small, *cuda, "delta", request.block_threads)
                                               : make_cpu_backend(small, pool);
  const SweepPlan plan = plan_sweep(m, 0, factorial(m), small.pairs());
  PlacementSource src;
  src.plan = &plan;
  std::vector<RawStats> stats(std::size_t(small.pairs()));
  PassIo io;
  io.stats = &stats;
  backend->run(Pass::Stats, src, plan.first_run, plan.first_run + 1, io);  // warm-up (CUDA: module load)
  double ms = 0;
  std::uint64_t runs = 1, evaluations = 0, next = plan.first_run + 1;
  Stopwatch wall;
  while (next < plan.end_run && wall.elapsed_ms() < 100) {
    const std::uint64_t b = std::min(plan.end_run, next + runs);
    ms += backend->run(Pass::Stats, src, next, b, io);
    evaluations += plan.placements_in(next, b) * small.pairs();
    next = b;
    runs *= 2;
  }
  const double rate_small = ms > 0 ? double(evaluations) / (ms / 1e3) : 1e9;
  e.evaluations_per_second = rate_small * double(m - 1) / double(p.n - 1);
  e.evaluations = evaluations_over_passes(p, request, e.placements_exact);
  e.seconds = double(e.evaluations / e.evaluations_per_second);
  return e;
}

}  // namespace ks::topo
