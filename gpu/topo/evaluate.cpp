// evaluate(): checks the request, plans its work and runs it through the coordinator (sweep_coordinator.cpp) on
// the workers asked for: one backend, several GPUs, or MPI ranks. Then the results derived from it.
#include <optional>

#include "core/error.hpp"
#include "topo/sweep/sweep_coordinator.hpp"

namespace ks::topo {

EvalResult evaluate(const Problem& p, const EvalRequest& r, const EvalControl& ctl, ThreadPool& pool,
                    CudaContext* cuda) {
  SweepSetup setup;
  setup.cpu_workers = {&pool};
  if (r.backend == Backend::Cuda) {
    if (!cuda) throw Error(ErrorKind::Device, "no CUDA context", "use --backend cpu");
    setup.gpu_workers = {cuda};
  }
  return evaluate(p, r, ctl, setup);
}

EvalResult evaluate(const Problem& p, const EvalRequest& r, const EvalControl& ctl, const SweepSetup& setup) {
  check_request(p, r);
  if (r.backend == Backend::Cuda && setup.gpu_workers.empty())
    throw Error(ErrorKind::Device, "no CUDA context", "use --backend cpu");
  // A pool only measures how long a sweep beyond exhaustive reach would take (for the CPU backend's message).
  std::optional<ThreadPool> own;
  ThreadPool* pool = setup.cpu_workers.empty() ? nullptr : setup.cpu_workers.front();
  if (!pool) pool = &own.emplace(1);
  Work work = plan_work(p, r, *pool, setup.gpu_workers.empty() ? nullptr : setup.gpu_workers.front());
  work.bind();
  return run_sweep(p, r, ctl, setup, work);
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
