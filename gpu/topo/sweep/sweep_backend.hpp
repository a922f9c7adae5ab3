#pragma once
// What evaluate() asks of a backend (CPU or CUDA): one pass over a batch of work, its reductions merged into
// the caller's accumulators. Internal to gpu/topo.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/hd.hpp"
#include "topo/arith.hpp"
#include "topo/evaluation.hpp"
#include "topo/sweep/sweep_core.hpp"
#include "topo/sweep/sweep_plan.hpp"

namespace ks::topo {

// Sampled and listed placements are bytes, one node each: sweeps of them take at most this many nodes (and the
// CUDA kernel that evaluates them holds one in a thread's array of this size).
inline constexpr int kMaxListedNodes = 255;

// Where placements come from. Items are runs of the plan (Runs), sample numbers (Samples) or positions in the
// list (Listed).
struct PlacementSource {
  PlacementMode mode = PlacementMode::All;
  const SweepPlan* plan = nullptr;  // All
  std::uint64_t seed = 0;           // Sample
  const std::vector<std::uint8_t>* listed = nullptr;  // Given: placements x n
};

// Per (slice, configuration), in the problem's units: exact modes fill the integer fields, real mode the doubles.
struct RawStats {
  std::int64_t min_i = INT64_MAX, max_i = INT64_MIN;
  double min_d = 0, max_d = 0;
  Sum128 sum_i;
  double sum_d = 0;
  std::uint64_t key = ~std::uint64_t(0);  // code of the argmin (All), else its item number
  std::uint64_t count = 0;
};

struct HistogramBins {
  std::int64_t lo_i = 0, width_i = 1;
  double lo_d = 0, width_d = 0;
};

struct Candidate {
  std::int64_t cost_i = 0;
  double cost_d = 0;
  std::uint64_t key = 0;
  int configuration = 0;
};

enum class Pass { Stats, Histogram, Top, Cube };

struct PassIo {
  std::vector<RawStats>* stats = nullptr;                 // Stats: merged into, [pair]
  const std::vector<HistogramBins>* bins = nullptr;       // Histogram: [pair]
  std::vector<std::array<std::uint64_t, kHistogramBins>>* counts = nullptr;  // Histogram: added to, [pair]
  bool histogram_follows = false;                         // Stats: a Histogram pass over the same batches comes next
  bool values_counted = false;  // Stats, out: the backend also counted the values; its Histogram pass over those
                                // batches adds all of them at the first one it meets (see cpu/topo_cpu.cpp)
  int top_slice = 0, top_k = 0;                           // Top
  std::vector<Candidate>* top = nullptr;                  // Top: candidates appended (the caller keeps the best)
  std::int64_t* cube_i = nullptr;                         // Cube: [item - cube_first][slice][config]
  double* cube_d = nullptr;
  std::uint64_t cube_first = 0;                           // placement index (All) or item of cube row 0
};

class SweepBackend {
 public:
  virtual ~SweepBackend() = default;
  // One pass over items [a, b) of `source`; returns its time in ms (device time for CUDA).
  virtual double run(Pass pass, const PlacementSource& source, std::uint64_t a, std::uint64_t b, PassIo& io) = 0;
  virtual std::string device() const = 0;
  virtual std::string launch_description() const { return {}; }
  virtual double upload_ms() const { return 0; }
  virtual double download_ms() const { return 0; }
  // Evaluations per batch that keep progress reports a fraction of a second apart.
  virtual std::uint64_t default_batch_evaluations() const = 0;
};

std::unique_ptr<SweepBackend> make_cpu_backend(const Problem& p, ThreadPool& pool);
// `variant`: "naive" or "delta". Device Error when CUDA is not available (hint: --backend cpu).
std::unique_ptr<SweepBackend> make_cuda_backend(const Problem& p, CudaContext& cuda, const std::string& variant,
                                                int block_threads);

// Merges two summaries of the same (slice, configuration): the lowest minimum with the lowest key among equals,
// the highest maximum, the sums and counts. Shared by the backends (the CUDA one merges on the device).
KS_HD void merge_raw(RawStats& into, const RawStats& o, bool exact) {
  if (o.count == 0) return;
  if (into.count == 0) {
    into = o;
    return;
  }
  if (exact) {
    if (o.min_i < into.min_i || (o.min_i == into.min_i && o.key < into.key)) into.min_i = o.min_i, into.key = o.key;
    if (o.max_i > into.max_i) into.max_i = o.max_i;
    into.sum_i.add(o.sum_i);
  } else {
    if (o.min_d < into.min_d || (o.min_d == into.min_d && o.key < into.key)) into.min_d = o.min_d, into.key = o.key;
    if (o.max_d > into.max_d) into.max_d = o.max_d;
    into.sum_d += o.sum_d;
  }
  into.count += o.count;
}

// A worker's RunningStats as RawStats (what the backends hand back).
template <class A>
KS_HD void to_raw(const RunningStats<A>& s, RawStats& r) {
  r = RawStats{};
  if (s.count == 0) return;
  if constexpr (A::exact) {
    r.min_i = A::to_int(s.min);
    r.max_i = A::to_int(s.max);
    r.sum_i = s.sum;
  } else {
    r.min_d = s.min;
    r.max_d = s.max;
    r.sum_d = s.sum;
  }
  r.key = s.key;
  r.count = s.count;
}

// Histogram bin of a cost, shared by the backends so that they bin identically.
KS_HD int exact_bin(std::int64_t cost, const HistogramBins& b) {
  const std::int64_t bin = (cost - b.lo_i) / b.width_i;
  return bin < 0 ? 0 : (bin >= kHistogramBins ? kHistogramBins - 1 : int(bin));
}
KS_HD int real_bin(double cost, const HistogramBins& b) {
  if (!(b.width_d > 0)) return 0;
#if defined(__CUDA_ARCH__)
  const double x = floor(__ddiv_rn(__dsub_rn(cost, b.lo_d), b.width_d));
#else
  const double x = __builtin_floor((cost - b.lo_d) / b.width_d);
#endif
  return x < 0 ? 0 : (x >= kHistogramBins ? kHistogramBins - 1 : int(x));
}

// The cost of an explicit placement (any n), in the same order as TileWalker::evaluate_in_full.
template <class A>
KS_HD typename A::Value cost_of_placement(const typename A::Value* traffic, const typename A::Value* cost_of,
                                          const std::uint8_t* placement, int n) {
  typename A::Value c = 0;
  for (int i = 0; i < n; ++i) {
    const int xi = placement[i];
    for (int j = 0; j < n; ++j) c = A::mad(c, cost_of[i * n + j], traffic[xi * n + placement[j]]);
  }
  return c;
}

}  // namespace ks::topo
