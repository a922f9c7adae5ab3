#pragma once
// The topology sweep as the CLI and the GUI call it: which placements to evaluate, on which backend, with what
// reductions; what comes back. No Qt, no GL, no CUDA headers.
//
//   Problem p = make_problem(traffic, configurations);
//   EvalRequest req;                       // all placements, CPU, histograms, top 10
//   EvalControl ctl{on_progress, &cancel}; // called between batches; set `cancel` to stop
//   EvalResult r = evaluate(p, req, ctl, pool, cuda_or_null);
//   best_overall(r), best_per_timestamp(r), best_over_time(r)
//
// Several GPUs, several MPI ranks, checkpoints: evaluate(p, req, ctl, SweepSetup{...}). The work is cut into
// chunks that workers take from a shared counter as they finish (a slower device takes fewer); the coordinator
// merges them exactly, so the results are the same bits whatever runs them (see topo/sweep/sweep_ledger.hpp).
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_context.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "registry/kernel_spec.hpp"
#include "topo/problem.hpp"

namespace ks::topo {

enum class PlacementMode {
  All,     // every placement with index in [range_begin, range_end): exhaustive, n <= kMaxExhaustiveNodes
  Sample,  // `samples` uniformly random placements (seeded), any n
  Given,   // the placements listed (identity, or read from a file), any n
};

// How an exhaustive sweep is cut (topo/sweep/sweep_plan.hpp), when the defaults are not wanted: tests force a
// head at small n, so that a headed sweep can be checked against the direct one. Results are the same either way
// (to the last bit for exact problems).
struct SweepShape {
  int head = -1;                 // positions fixed per run (sweep_head.hpp); -1: n - 16 above 16 nodes, else none
  std::uint64_t run_blocks = 0;  // blocks per run; 0: the plan's choice
};

struct EvalRequest {
  PlacementMode mode = PlacementMode::All;
  std::uint64_t range_begin = 0;
  std::uint64_t range_end = 0;  // 0: n!
  std::uint64_t samples = 0;
  std::uint64_t seed = 1;
  std::vector<std::vector<int>> placements;  // Given: node at each position

  Backend backend = Backend::Cpu;
  std::string variant;        // "cpu" | "naive" | "delta"; empty: the backend's default (cpu, delta)
  int block_threads = 128;    // CUDA threads per block
  bool histogram = true;      // 64-bin histogram per (slice, configuration): a second pass
  int top_k = 0;              // best placements of the top slice (summed traffic, or the only timestamp)
  std::uint64_t cube_limit_bytes = 0;  // > 0: keep every cost if they fit in this many bytes (else usage Error)
  int warmup = 0;             // untimed repetitions (benchmarks)
  int repeat = 1;             // timed repetitions; the result is the last one's
  // Evaluations per chunk of work (the unit handed to a device or rank, merged in order, and between progress
  // reports); 0: the backend's default batch.
  std::uint64_t batch_evaluations = 0;
  SweepShape shape;  // All: how the sweep is cut (tests)
};

struct EvalProgress {
  std::uint64_t evaluations_done = 0;
  std::uint64_t evaluations_total = 0;
  std::uint64_t evaluations_at_start = 0;  // done before this run started (a resumed sweep)
  double elapsed_s = 0;
  const char* pass = "";  // "sweep", "histogram", "top", "cube"
};

struct EvalControl {
  std::function<void(const EvalProgress&)> progress;  // from the calling thread, between chunks
  const std::atomic<bool>* cancel = nullptr;           // stop handing out chunks; those under way finish
  const std::atomic<bool>* abort = nullptr;  // stop now (SIGTERM): checkpoint what is merged, drop what runs
};

// A cost: `scaled` is exact (times 10^-decimals) when the result is exact; `value` is always set.
struct Cost {
  std::int64_t scaled = 0;
  double value = 0;
};

inline constexpr int kHistogramBins = 64;

struct Histogram {
  // Bin b holds costs in [lo + b * width, lo + (b + 1) * width); the last bin includes the maximum. Exact costs
  // use a whole-number width (in scaled units) of ceil((max - min + 1) / 64).
  Cost lo, width;
  std::array<std::uint64_t, kHistogramBins> counts{};
};

struct SliceResult {
  int slice = 0, configuration = 0;
  Cost min, max;
  double mean = 0;
  std::uint64_t count = 0;
  std::uint64_t argmin = 0;   // placement index (All), sample number (Sample), list position (Given)
  std::vector<int> placement; // the argmin: node at each position; among equal minima the lowest argmin
  std::optional<Histogram> histogram;
};

struct RankedPlacement {
  Cost cost;
  std::uint64_t index = 0;  // as SliceResult::argmin
  int configuration = 0;
  std::vector<int> placement;
};

struct PassTiming {
  TimingStats time;           // per repetition: the pass's kernels (CUDA events) or its wall time (CPU)
  std::uint64_t evaluations = 0;
};

// One worker of a sweep: a GPU or the CPU of this process, or another MPI rank.
struct WorkerTiming {
  std::string name;                   // "NVIDIA H100 80GB HBM3 (GPU 0)", "rank 1 on node7: CPU (8 threads)"
  int rank = 0;
  std::uint64_t chunks = 0;           // sweep-pass chunks it ran
  std::uint64_t evaluations = 0;      // in the sweep pass
  double busy_s = 0;                  // its sweep-pass time (device time on CUDA)
  double evaluations_per_second = 0;  // evaluations / busy_s
  double ready_s = -1;                // when it was ready (its Hello), from the sweep's start; -1: never
  bool failed = false;
};

struct EvalTiming {
  std::string device;         // GPU name or "CPU (N threads)"; with several workers, "2 GPUs", "3 ranks" ...
  std::string variant;
  double upload_ms = 0, download_ms = 0;
  // Per repetition: the pass's kernels (CUDA events) or its wall time (CPU); with several workers the pass's
  // wall time from the first chunk handed out to the last merged.
  PassTiming sweep, histogram, top, cube;
  double evaluations_per_second = 0;  // sweep evaluations / median sweep time
  std::string launch;         // CUDA: "grid x block, N registers, occupancy ..." of the sweep kernel
  int ranks = 1;                       // MPI ranks
  double wall_s = 0;                   // this run's wall time, setup to merge (more than the passes' kernels)
  std::vector<WorkerTiming> workers;   // every worker of the last repetition
  // Sweep evaluations per second in all / (workers x the best worker's): 1 when they add up perfectly.
  double parallel_efficiency = 1;
};

struct EvalResult {
  const Problem* problem = nullptr;  // what was evaluated (must outlive the result)
  PlacementMode mode = PlacementMode::All;
  bool exact = false;
  int decimals = 0;
  bool complete = true;              // false: cancelled; the results cover [range_begin, evaluated_end)
  std::uint64_t range_begin = 0, range_end = 0, evaluated_end = 0;  // All: placement indices
  std::uint64_t placements = 0;      // placements evaluated
  std::uint64_t evaluations = 0;     // placements x slices x configurations
  std::vector<SliceResult> slices;   // [slice * configs + configuration]
  int top_slice = 0;
  std::vector<RankedPlacement> top;  // on `top_slice`, across configurations, best first
  // Every cost, when asked for: [placement][slice][configuration], placements in index order.
  std::vector<std::int64_t> cube_scaled;
  std::vector<double> cube_real;
  EvalTiming timing;
  std::vector<std::string> notes;
  // An incomplete sweep: why it stopped ("cancelled", "terminated by a signal", or what failed), the chunks that
  // were under way and are lost (they run again on resume), and the checkpoint written (empty: none).
  std::string stopped;
  bool failed = false;
  std::vector<std::string> lost;
  std::string checkpoint;
  int sessions = 1;  // runs that made this result (> 1 when resumed from a checkpoint)

  const SliceResult& at(int slice, int configuration) const;
};

class SweepBackend;
class RankLink;
class RankRoster;

// Who sweeps, and how a long sweep is kept safe.
struct SweepSetup {
  // This process's workers: the CPU backend runs one worker per pool (usually one), CUDA one per context (one
  // per GPU; a GPU listed twice gets two workers with their own streams).
  std::vector<ThreadPool*> cpu_workers;
  std::vector<CudaContext*> gpu_workers;
  // MPI: this process is rank 0 of roster->size() ranks; the others run serve_sweep
  // (topo/sweep/sweep_worker.hpp).
  RankRoster* ranks = nullptr;
  // The sweep's state is written here (atomically) every `checkpoint_every_s` and when it stops.
  std::string checkpoint;
  double checkpoint_every_s = 5;
  // Without `checkpoint`: where a sweep that fails or is killed keeps what was merged (empty: nowhere).
  std::string checkpoint_on_stop;
  std::string resume;        // a checkpoint to continue from (usage Error when it belongs to another sweep)
  std::string label;         // what is swept ("nug12.dat"), for checkpoints and their messages
  std::string where;         // names this process's workers in reports ("rank 0 on node7")
  // A sweep that, measured over its first `estimate_after_s`, will take longer than a minute says so through
  // `note`; one that would take longer than `max_time_s` (> 0) stops and throws a usage Error saying what fits.
  double max_time_s = 0;
  double estimate_after_s = 2;
  std::function<void(const std::string&)> note;
  // Tests: wraps the backend of local worker `i` (fault injection).
  std::function<std::unique_ptr<SweepBackend>(int, std::unique_ptr<SweepBackend>)> wrap_backend;
};

// Runs the request. Usage Errors before any work for impossible requests: n! too large for an exhaustive sweep
// (saying how many placements and how long it would take, and suggesting sample:N), a range outside 0 .. n!,
// a cube over its limit, a placement that is not a permutation. `cuda` may be null for the CPU backend.
EvalResult evaluate(const Problem& problem, const EvalRequest& request, const EvalControl& control,
                    ThreadPool& pool, CudaContext* cuda);
// The same on the workers and ranks of `setup`: results identical to one worker's, to the last bit.
EvalResult evaluate(const Problem& problem, const EvalRequest& request, const EvalControl& control,
                    const SweepSetup& setup);

// Derived results. Ties: lowest cost, then lowest timestamp, configuration, placement index.
struct BestPlacement {
  Cost cost;
  int slice = 0, configuration = 0;
  std::uint64_t index = 0;
  std::vector<int> placement;
};
BestPlacement best_overall(const EvalResult& r);                   // over timestamps (not the summed slice)
std::vector<BestPlacement> best_per_timestamp(const EvalResult& r);  // best configuration of each timestamp
std::optional<BestPlacement> best_over_time(const EvalResult& r);  // on the summed slice, when there is one

// One placement per configuration with its cost on every slice (a search's or a proof's result) in the sweep's
// form: mode Given, each configuration's slices holding that one placement, so that the sweep's views and CSV
// show it. Configurations without a row stay empty (count 0).
struct ConfigurationPlacement {
  int configuration = 0;
  const std::vector<int>* placement = nullptr;
  const std::vector<Cost>* slice_costs = nullptr;  // [slice]
};
EvalResult eval_result_of_placements(const Problem& p, int top_slice, bool complete,
                                     const std::vector<ConfigurationPlacement>& rows);

// The cost of one placement from the definition (any n), for checks and explanations.
Cost placement_cost(const Problem& p, int slice, int configuration, const std::vector<int>& placement);
// Index -> placement and back, for n <= 20.
std::vector<int> placement_of_index(std::uint64_t index, int n);
std::uint64_t index_of_placement(const std::vector<int>& placement);
// Usage Error unless `placement` holds each of 0 .. n-1 once (`what` names it in the message).
void check_placement(const std::vector<int>& placement, int n, const std::string& what);

// How long an exhaustive sweep of n nodes would take, from a short measurement on this backend: seconds, and
// the measured rate in evaluations per second. Used to explain why n! is too large, and by the app before Run.
struct SweepEstimate {
  double seconds = 0;  // every pass of the request (its evaluations over the rate)
  double evaluations_per_second = 0;
  std::uint64_t placements = 0;  // n! (saturated at UINT64_MAX)
  long double placements_exact = 0;
  long double evaluations = 0;  // over every pass, as the sweep's progress counts them (evaluations_over_passes)
};
SweepEstimate estimate_exhaustive(const Problem& problem, const EvalRequest& request, ThreadPool& pool,
                                  CudaContext* cuda);

// Evaluations a sweep of `placements` placements makes over all the passes of `r` (one repetition): what its
// progress counts, and what an estimate of its time divides by a measured rate. A sweep with a histogram and a
// top list walks the placements three times, so this is about three times placements x slices x configurations.
long double evaluations_over_passes(const Problem& p, const EvalRequest& r, long double placements);
// The passes of `r` in the order they run: "sweep + histogram + top".
std::string passes_text(const EvalRequest& r);

}  // namespace ks::topo
