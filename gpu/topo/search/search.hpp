#pragma once
// Placement search past the exhaustive sweep: robust tabu search (Taillard 1991) and simulated annealing,
// many independent chains on the CPU (threaded, the reference) or on the GPU, for any traffic x configuration
// set the sweep takes and n = 2 .. 1024. No Qt, no GL, no CUDA headers.
//
//   SearchRequest req;                        // tabu, CPU, 10 s
//   req.params = search_params_from(KernelRegistry::builtin().get("search").default_params());
//   SearchResult r = search(problem, req, control, pool, cuda_or_null);
//
// What is optimised: the summed traffic when there are several timestamps (the cost is linear in the
// traffic), else the only timestamp; each configuration gets its own search (a placement is good for one
// network), and the result holds, per configuration, the best placement found and its cost on every
// timestamp.
//
// Determinism: a chain is a pure function of (problem, parameters, seed, chain number): its random stream,
// start and moves do not depend on the thread or block that runs it, and the restarts between sync intervals
// are decided on the host in chain order. The same request gives the same result on the same backend; with
// the same number of chains the CPU and CUDA backends make the same moves step by step (a test checks it). A
// time limit stops after a whole sync interval, so a timed run equals the run of that many iterations.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_context.hpp"
#include "core/thread_pool.hpp"
#include "registry/kernel_spec.hpp"
#include "topo/evaluation.hpp"
#include "topo/problem.hpp"

namespace ks::topo {

inline constexpr int kMaxSearchNodes = 1024;  // placements are 16-bit, pairs packed in 32 bits

enum class SearchAlgorithm { Tabu, Anneal };
const char* to_string(SearchAlgorithm a) noexcept;
// How a tabu move's tenures are drawn: Cubed, floor(u^3 x tenure x n) for each of the two assignments, u
// uniform (Taillard's 2006 code); Band, one tenure uniform in [band_low x n, band_high x n] for both, drawn
// anew every 2 x band_high x n moves (Taillard 1991).
enum class TenureRule { Cubed, Band };
const char* to_string(TenureRule t) noexcept;
// Where a stalled chain restarts: Elites, one of the best distinct placements of all chains (they share what
// the best found); Own, the chain's own best since its last restart (iterated tabu search: every chain stays in
// its own region, each restart going on from where the last one led); Cross, a crossover of its own best and one
// of the elites (what both assign alike is kept, the rest taken from either: a memetic search, each chain's
// region moving towards what the best placements share); Record, the best the chain has found since it started
// (iterated tabu search that goes back to its best when a restart leads nowhere better).
enum class RestartFrom { Elites, Own, Cross, Record };
const char* to_string(RestartFrom r) noexcept;

// The algorithms' parameters, as registered in the registry (KernelSpec "search",
// gpu/topo/search/search_spec.cpp: ranges, defaults and help live there only).
struct SearchParams {
  SearchAlgorithm algorithm = SearchAlgorithm::Tabu;
  int chains = 0;  // independent chains; 0: the backend's choice (CPU: its threads, CUDA: a full GPU)
  int sync = 0;    // iterations per chain between the host's checks (restarts, progress, stop); 0: auto
  // tabu
  TenureRule tenure_rule = TenureRule::Cubed;
  double tenure = 2;      // cubed: longest tabu tenure, x n; each tenure is floor(u^3 x tenure x n), u uniform
  double band_low = 0.9, band_high = 1.1;  // band: the tenures' range, x n
  double aspiration = 5;  // a move whose assignments were not made for aspiration x n^2 iterations is forced
  // anneal
  double accept_start =
      0.3;                   // acceptance probability of the mean uphill move at the start of a cooling cycle
  double accept_end = 1e-4;  // ... and at its end
  double cycle = 20;         // steps of a cooling cycle, x n^2 (then the chain reheats)
  // restarts: a chain that stalls starts again from its own best (or one of the elites, or a crossover of
  // both), perturbed
  double tabu_stall = 5;   // tabu: no better best for tabu_stall x n^2 moves
  int anneal_stall = 2;    // anneal: no better best for this many cooling cycles
  RestartFrom restart_from = RestartFrom::Own;
  double perturb = 0.1;    // perturb x n random swaps of where the chain restarts
  double perturb_max = 0;  // > perturb: breakout, perturb x n more swaps a restart in a row that finds nothing better
  int elites = 8;          // the best distinct placements kept for restarts
  int block = 0;           // CUDA tabu: threads per chain (multiple of 32, <= 512); 0: automatic
  // CUDA tabu in int32: bits per stored path cost and traffic entry (8, 16, 32); 0: the fewest that hold
  // every entry
  int matrix_bits = 0;
};

// The parameters of a ParamSet of the "search" spec (Usage error for a value out of range).
SearchParams search_params_from(const ParamSet& params);

struct SearchRequest {
  SearchParams params;
  Backend backend = Backend::Cpu;
  std::uint64_t seed = 1;
  double time_s = 0;             // > 0: stop after this long (split evenly over the configurations)
  std::uint64_t iterations = 0;  // > 0: stop after this many iterations per chain (per configuration)
  std::optional<double> target;  // stop a configuration's search once its best cost is at most this
};

struct ConvergencePoint {
  double time_s = 0;             // since the configuration's search started
  std::uint64_t iterations = 0;  // over all chains
  Cost best;
};

// The search of one configuration.
struct ConfigurationSearch {
  int configuration = 0;
  Cost best;                             // on the optimised slice, evaluated from the definition
  std::vector<int> placement;            // node at each position
  std::vector<Cost> slice_costs;         // the placement's cost on every slice (timestamps, then the sum)
  double time_to_best_s = 0;             // when the best was found (interpolated inside its sync interval)
  std::uint64_t iterations_to_best = 0;  // over all chains
  std::uint64_t iterations = 0;          // over all chains: tabu moves, or annealing proposals
  std::uint64_t evaluations = 0;         // swap evaluations (a tabu move evaluates every pair)
  std::uint64_t restarts = 0;
  double seconds = 0;
  bool reached_target = false;
  std::vector<ConvergencePoint> curve;  // every improvement of the best, then the end
};

struct SearchResult {
  const Problem* problem = nullptr;  // what was searched (must outlive the result)
  SearchParams params;
  int slice = 0;  // the optimised slice (the summed one when there are several timestamps)
  bool exact = false;
  int decimals = 0;
  bool complete = true;    // false: cancelled (the best so far is kept)
  std::string stopped_by;  // "time", "iterations", "target", "cancel"
  std::string device;      // GPU name or "CPU (N threads)"
  std::string arithmetic;  // "int32", "int64", "double"
  int chains = 0;
  int sync = 0;
  std::string launch;  // CUDA: blocks x threads, shared memory per block
  std::vector<ConfigurationSearch> configurations;
  int best_configuration = 0;
  double seconds = 0;
  double iterations_per_second = 0;  // over all chains and configurations
  double evaluations_per_second = 0;
  std::vector<std::string> notes;

  const ConfigurationSearch& best() const { return configurations.at(std::size_t(best_configuration)); }
};

struct SearchProgress {
  int configuration = 0, configurations = 1;
  double elapsed_s = 0;                         // in this configuration's search
  double fraction = -1;                         // of the whole search, by time or iterations; -1: unknown
  std::uint64_t iterations = 0;                 // of this configuration, over all chains
  Cost best;                                    // of this configuration so far
  bool improved = false;                        // since the previous report
  const std::vector<int>* placement = nullptr;  // the best so far (valid during the call)
  const std::vector<ConvergencePoint>* curve = nullptr;
};

struct SearchControl {
  std::function<void(const SearchProgress&)> progress;  // from the calling thread, after every sync interval
  const std::atomic<bool>* cancel = nullptr;            // checked after every sync interval
};

// Usage Errors before any work: n < 2 or > 1024, traffic or path costs that are zero everywhere, no stop
// (neither a time nor an iteration limit), a time limit of 0, parameters out of range, a chain count too
// large for the memory. Device Error when CUDA is asked for and `cuda` is null.
SearchResult search(const Problem& problem, const SearchRequest& request, const SearchControl& control,
                    ThreadPool& pool, CudaContext* cuda);

// The search's result in the sweep's form (mode Given: one placement per configuration, every slice's cost),
// so that the sweep's views (heatmap, network, exports) show it.
EvalResult as_eval_result(const SearchResult& r);

// ---- for tests: the chains' states after each sync interval, to compare backends step by step ----
struct ChainSnapshot {
  std::int64_t cost_i = 0, best_i = 0;  // exact problems
  double cost_d = 0, best_d = 0;        // real-valued problems
  std::uint64_t rng = 0;
  std::int64_t iteration = 0, best_iteration = 0;
  std::int32_t tenure = 0;  // tabu, band tenures: the tenure in force
  std::vector<int> placement, best_placement;
  bool operator==(const ChainSnapshot&) const = default;
};
// The first `intervals` intervals of configuration 0's search (1, 2, 4, ... steps up to the sync interval),
// restarts included;
// snapshots[interval][chain].
std::vector<std::vector<ChainSnapshot>> trace_chains(const Problem& problem, const SearchRequest& request,
                                                     int intervals, ThreadPool& pool, CudaContext* cuda);

}  // namespace ks::topo
