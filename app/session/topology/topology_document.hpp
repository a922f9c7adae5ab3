#pragma once
// The Topology panel's document: the traffic (a file, a generator, a QAPLIB instance), the topology
// configurations, how to sweep them (metric, placements, backend), the last sweep's results and what the user
// selected in them (timestamp, configuration, placement). No Qt, no GL: the window, the headless --screenshot
// path and the tests drive it alike.
//
// Threads: every method is called from one thread (the GUI thread). Loading files and sweeping run on the
// document's own worker thread (a sweep takes seconds at n = 11; the session's kernel runs must not wait
// behind it), whose results reach the document only through poll(). Inputs are immutable snapshots
// (shared_ptr<const TopologyInputs>): a sweep keeps the snapshot it started with, so results always name the
// nodes and configurations they were computed for, whatever the user changed since.
#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "registry/kernel_spec.hpp"
#include "registry/registry.hpp"
#include "session/topology/link_loads.hpp"
#include "session/worker.hpp"
#include "topo/evaluation.hpp"
#include "topo/problem.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/search/search.hpp"
#include "topo/inputs/topology.hpp"
#include "topo/inputs/traffic.hpp"

namespace ks {
class CudaContext;
class ThreadPool;
}  // namespace ks

namespace ks::app {

// Where a configuration came from, so it can be rebuilt for new traffic or another metric.
struct TopologySource {
  std::string text;  // a family spec ("torus:4x2"), a file path, kOwnLinks, or a fixed configuration's name
  std::optional<topo::Configuration> fixed;  // QAPLIB's matrix A: kept as it is, whatever the metric
};
// The source text of the traffic file's own links (SNDlib network files).
inline constexpr const char* kOwnLinks = "SNDlib links of the traffic file";

struct TopologyInputs {
  topo::TrafficSeries traffic;
  std::vector<TopologySource> sources;
  std::vector<topo::Configuration> configs;  // built from `sources`, in order (one source may give several)
  std::vector<int> config_source;            // index into `sources` of each configuration
  std::string metric = "hops";               // "hops" | "weighted" (what the user chose)
  std::string qaplib_instance;               // the instance's name when the traffic came from a .dat
  std::string qaplib_file;                   // ... and its path (the .sln beside it is the search's reference)
  std::vector<std::string> notes;            // said once: how positions were matched, what was dropped
};

// placements "search": the registry's "search" parameters and when to stop (as `topo --placements search`).
struct TopologySearchSettings {
  ParamSet params = KernelRegistry::builtin().get("search").default_params();
  double time_s = 10;            // > 0: seconds (split over the configurations)
  std::uint64_t iterations = 0;  // > 0: per chain and configuration
  std::optional<double> target;  // stop at this cost
};

// placements "bnb": the proof by branch and bound (as `topo --placements bnb`), on the CPU threads.
struct TopologyProofSettings {
  double time_s = 0;  // > 0: stop after this long with the gap proved so far; 0: until proved
};

struct TopologySettings {
  std::string placements =
      "all";  // "all" | "sample:N" | "identity" | a placements file (see cli/topo_inputs) | "search" | "bnb"
  Backend backend = Backend::Cpu;
  std::vector<int> gpus;   // CUDA: the devices that sweep together (a worker each); empty: every device
  int top_k = 10;
  std::uint64_t seed = 1;  // of sample:N and of the search
  TopologySearchSettings search;
  TopologyProofSettings proof;
  // A sweep whose estimate (measured over its first seconds) exceeds this stops and says what fits; 0: none.
  double max_time_s = 600;
};

// What a sweep of the current inputs and settings will cost, shown before Run. The evaluations are counted over
// every pass the sweep makes (topo::evaluations_over_passes), as its progress line counts them; for placements
// "all" the time is measured on a smaller instance with the chosen backend (topo::estimate_exhaustive, the
// estimate the CLI gives when it refuses too large an n).
struct SweepForecast {
  long double placements = 0;
  int slices = 0, configurations = 0;
  long double evaluations_per_pass = 0;  // placements x slices x configurations
  std::string passes;                    // "sweep + histogram + top"
  long double evaluations = 0;           // over every pass
  std::optional<double> seconds;         // placements "all", once measured on the worker
  std::string measured_on;               // the backend the time was measured on ("CPU (2 threads)")
  // Branch and bound can prove the best placement instead (topo::provable_without_time_limit).
  bool provable = false;
  // Why nothing is counted (a refused request: evaluations 0), or why the time could not be measured.
  std::string error;
};
// Sweeps longer than this (estimated) are worth a second thought: the panel suggests sampling.
inline constexpr double kLongSweepS = 60;
// "11.50 G", "2.40 M", "4096": how the panel and the progress line write counts of evaluations, so that the two
// read alike.
std::string evaluation_count_text(long double count);

// One finished (or cancelled) sweep and the inputs it ran on.
struct TopologyRun {
  std::shared_ptr<const TopologyInputs> inputs;
  std::unique_ptr<topo::Problem> problem;  // what result.problem points to
  topo::EvalResult result;
  TopologySettings settings;
  double wall_s = 0;
  // placements "search": the search itself (`result` is its sweep form) and the cost it is measured against.
  std::shared_ptr<const topo::SearchResult> search;
  // placements "bnb": the proof (`result` is its sweep form).
  std::shared_ptr<const topo::BnbResult> proof;
  std::optional<double> reference;
  std::string reference_source;
};

// A search while it runs (and the last one after it ended): what the panel plots and draws.
struct SearchLive {
  bool running = false;
  int configuration = 0, configurations = 0;
  double elapsed_s = 0;
  double fraction = -1;
  std::uint64_t iterations = 0;
  topo::Cost best;
  std::vector<int> placement;                  // the best so far of `configuration`
  std::vector<topo::ConvergencePoint> curve;   // of `configuration`
  std::optional<double> reference;             // the best known cost (the .sln beside a QAPLIB .dat)
  std::string reference_source;
};

// A proof while it runs (and the last one after it ended): the gap plot and the counts the panel shows.
struct ProofLive {
  bool running = false;
  int configuration = 0, configurations = 0;
  double elapsed_s = 0;
  double fraction = 0;         // of the configuration's subtrees done
  std::uint64_t nodes = 0, open = 0, subtrees = 0;
  topo::Cost bound, incumbent;
  std::vector<topo::GapPoint> curve;  // of `configuration`: the bound and the best found over time
};

// The best cost over timestamps x configurations (the heatmap): rows are timestamps (the summed slice left
// out), columns configurations; NaN where nothing was evaluated.
struct CostGrid {
  int rows = 0, cols = 0;
  std::vector<double> values;  // [row * cols + col]
  double lo = 0, hi = 0;       // over the finite values
  std::vector<int> best_col;   // per row: the configuration with the lowest cost (-1: none)
  double at(int r, int c) const { return values[std::size_t(r) * std::size_t(cols) + std::size_t(c)]; }
};

class TopologyDocument {
 public:
  struct Options {
    unsigned cpu_threads = 0;  // 0: every core
    bool use_cuda = true;      // false: the CUDA backend is refused (--backend cpu, tests)
  };
  struct Notice {
    bool error = false;
    std::string text;
  };
  // What the user looks at: a slice (timestamp, or the summed slice) and a configuration; `top_rank` >= 0
  // shows that entry of the top placements instead of the slice's best placement.
  struct Selection {
    int slice = 0;
    int configuration = 0;
    int top_rank = -1;
  };

  explicit TopologyDocument(Options options);
  TopologyDocument() : TopologyDocument(Options{}) {}
  ~TopologyDocument();
  TopologyDocument(const TopologyDocument&) = delete;
  TopologyDocument& operator=(const TopologyDocument&) = delete;

  // ---- inputs: each throws ks::Error and keeps the previous inputs when it cannot be done ----
  // The embedded sample: gravity traffic of 8 nodes over 12 timestamps, on a ring, a 4x2 torus and an
  // optical-circuit-switch family over the ring; then runs it (exhaustively: 8! placements).
  void open_sample();
  // A traffic file or folder (SNDlib native .txt, a folder of SNDlib XML, CSV long or dense, QAPLIB .dat), on
  // the worker; success or failure arrives through poll() and notices. The topology sources are rebuilt for
  // it.
  void open_traffic_async(const std::filesystem::path& path);
  void open_traffic(const std::filesystem::path& path);  // the same, on the calling thread
  void generate_traffic(const std::string& spec);  // "gravity:n=8,t=12,seed=1" (see traffic_generators.hpp)
  // A family spec, a topology file, or kOwnLinks; appended to the configurations.
  void add_topology(const std::string& spec_or_path);
  void remove_topology(int source_index);
  void set_metric(
      const std::string& metric);  // rebuilds every configuration; usage Error for an unknown metric
  const std::shared_ptr<const TopologyInputs>& inputs() const noexcept { return inputs_; }
  bool has_traffic() const noexcept { return inputs_ && inputs_->traffic.node_count() > 0; }

  TopologySettings& settings() noexcept { return settings_; }
  // Checks the settings against the inputs (placements spelling, CUDA available): usage/device Error.
  void check_settings() const;

  // ---- sweeping ----
  void run();     // on the worker; Errors before any work (no traffic, no configuration, n! too large ...)
  void cancel();  // stops the sweep between batches; the partial result is kept and says so
  void shut_down();  // the app is closing: the running job is cancelled, none starts after (Session::shut_down)
  bool poll();    // applies finished work; call once per frame. True when something was applied
  void wait_idle();
  Worker::Status job_status() const { return worker_->status(); }
  bool busy() const { return !worker_->idle(); }
  bool inputs_changed_since_run() const noexcept { return changed_since_run_; }
  std::vector<Notice> take_notices() { return std::exchange(notices_, {}); }
  const std::string& last_error() const noexcept { return last_error_; }
  // What Run would cost with the current inputs and settings (null for a search, or without traffic or
  // configurations). Counted at once; the time of placements "all" is measured on the worker (a fraction of a
  // second) once per change of inputs, placements or backend, and arrives through poll().
  const SweepForecast* forecast();

  // ---- placement search (settings().placements == "search"; run() starts it, cancel() keeps the best) ----
  const SearchLive& search_live() const noexcept { return live_; }
  // The network of the configuration being searched, with the loads of its best placement so far.
  std::optional<LoadedNetwork> live_network() const;

  // ---- proof (settings().placements == "bnb"; run() starts it, cancel() keeps the best and the gap) ----
  const ProofLive& proof_live() const noexcept { return proof_live_; }

  // ---- results (of the last sweep; null before the first) ----
  const TopologyRun* run_result() const noexcept { return run_.get(); }
  CostGrid cost_grid() const;
  const Selection& selection() const noexcept { return selection_; }
  void select(int slice, int configuration);  // clamps nothing: usage Error outside the result
  void select_top(int rank);                  // -1: back to the slice's best placement
  // The placement shown (node at each position) and its cost, for the selection; empty before a result.
  std::vector<int> selected_placement() const;
  std::optional<topo::Cost> selected_cost() const;
  const topo::SliceResult* selected_slice() const;
  // The network of the selected configuration with the load of every link under the selected placement.
  std::optional<LoadedNetwork> selected_network() const;

  // ---- exports (atomic) ----
  // CSV: one row per (timestamp, configuration), as `kernelscope-cli topo --csv`. JSON: everything, as
  // `kernelscope-cli topo --json`, plus "selection" (timestamp, configuration, placement, cost, link loads).
  // Usage Error before the first result.
  void export_csv(const std::filesystem::path& path) const;
  void export_json(const std::filesystem::path& path) const;

 private:
  void set_inputs(std::shared_ptr<const TopologyInputs> next);
  void run_search();                 // topology_search_run.cpp
  void check_search_settings() const;
  void run_proof();                  // topology_proof_run.cpp
  void check_proof_settings() const;
  void apply_run(std::shared_ptr<TopologyRun> run);
  std::vector<CudaContext*> cuda_workers(const TopologySettings& settings);  // on the worker: made once per list
  void measure_forecast(const std::string& key);
  void notify(bool error, std::string text);

  Options options_;
  std::shared_ptr<const TopologyInputs> inputs_;
  TopologySettings settings_;
  std::shared_ptr<TopologyRun> run_;
  Selection selection_;
  SearchLive live_;
  ProofLive proof_live_;
  std::shared_ptr<const TopologyInputs> live_inputs_;  // what the live search runs on
  bool changed_since_run_ = false;
  std::string forecast_key_;  // the inputs and settings forecast_ was made for
  std::optional<SweepForecast> forecast_;
  std::uint64_t load_ticket_ = 0;  // the latest traffic load asked for; older ones are dropped
  std::string last_error_;
  std::vector<Notice> notices_;
  std::unique_ptr<ThreadPool> pool_;   // used by the worker only
  // Created on the worker at the first CUDA sweep, one per device of settings().gpus (remade when they change).
  std::vector<std::unique_ptr<CudaContext>> cuda_;
  std::vector<int> cuda_devices_;
  std::atomic<bool> cancel_{false};
  std::unique_ptr<Worker> worker_;  // last: destroyed first, so no job outlives what it uses
};

}  // namespace ks::app
