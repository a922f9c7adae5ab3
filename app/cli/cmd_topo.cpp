// `topo`: the topology sweep — every placement of the traffic's nodes (or a sample, or given ones) on every
// topology configuration, for every timestamp. Prints the best placement per (timestamp, configuration) and a
// summary; --json/--csv write everything (atomically). Progress with ETA on stderr; Ctrl-C stops between
// chunks, reports what was evaluated (resumable with --range, or --resume with a checkpoint) and exits 130.
//
// Beyond one device: --gpus (a worker per GPU in this process), and under mpirun or srun one rank per GPU (or per
// group of CPU cores with --backend cpu): rank 0 hands out chunks and merges them, the other ranks only work.
// Every rank reads the same inputs; only rank 0 prints and writes files. --placements bnb likewise: rank 0 proves
// and hands subtrees to the other ranks (topo/bnb/bnb_ranks.hpp).
#include <fmt/format.h>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

#include "cli/backend_choice.hpp"
#include "cli/bnb_devices.hpp"
#include "cli/commands.hpp"
#include "inputs/image_files.hpp"
#include "cli/interrupt.hpp"
#include "cli/launch.hpp"
#include "cli/mpi_session.hpp"
#include "cli/progress_bar.hpp"
#include "cli/request_checks.hpp"
#include "inputs/topo_inputs.hpp"
#include "report/topo_report.hpp"
#include "cli/topo_bnb.hpp"
#include "cli/topo_bnb_estimate.hpp"
#include "cli/topo_scale.hpp"
#include "cli/topo_search.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "io/atomic_file.hpp"
#include "topo/bnb/bnb_ranks.hpp"
#include "topo/sweep/checkpoint.hpp"
#include "topo/sweep/rank_link.hpp"
#include "topo/sweep/sweep_worker.hpp"
#include "topo/inputs/topology.hpp"
#include "topo/inputs/traffic_generators.hpp"

namespace ks::cli {

using inputs::apply_placements;
using inputs::apply_range;
using inputs::check_output_folder;
using inputs::load_topo_inputs;
using inputs::TopoInputs;
using inputs::TopoSource;
using report::topo_csv;
using report::topo_json;
using report::topo_text;
using report::TopoContext;

namespace {

struct TopoOptions {
  TopoSource source;
  std::string placements = "all";
  std::string range;
  std::uint64_t seed = 1;
  int top = 0;
  bool no_histogram = false;
  std::string backend;  // empty: CUDA when a device is usable (or --variant or --gpus asks for it), else the CPU
  std::string variant;
  int block = 128;
  int repeat = 1;
  int warmup = 0;
  std::string json, csv;
  std::string gpus;     // empty: every usable device
  std::uint64_t chunk = 0;
  std::string checkpoint, resume;
  double checkpoint_every = 5;
  std::string max_time = "none";
  std::optional<int> estimate;  // --placements bnb: probes of the tree's estimate instead of the proof
  int feeders = 0;              // --placements bnb: threads feeding each GPU; 0: bnb_devices.hpp chooses
  SearchOptions search;  // --placements search (cli/topo_search.*)
};

// What every rank builds alike from the options: inputs, problem and request.
struct Prepared {
  TopoInputs in;
  topo::Problem problem;
  topo::EvalRequest request;
  std::vector<std::string> notes;
};

// The sweep pass on the roofline against this process's roof: the CPU pool's peaks, or the sum of the GPUs'
// (several GPUs share the work). With MPI ranks the others' hardware is not counted.
RooflineFigures sweep_roofline(const topo::EvalResult& r, const topo::Problem& problem, Backend backend,
                               Engine& engine, const std::vector<std::unique_ptr<CudaContext>>& contexts) {
  ComputePeaks peaks;
  if (backend == Backend::Cpu) {
    peaks = engine.peaks(Backend::Cpu);
  } else {
    for (const auto& c : contexts) {
      peaks.memory_gbps += c->copy_bandwidth_gbps();
      peaks.fma_gflops += c->fma_peak_gflops();
    }
    peaks.where = r.timing.device;
  }
  return report::sweep_roofline(r, problem, peaks);
}

Prepared prepare(const TopoOptions& opt, Engine& engine) {
  Prepared p;
  topo::EvalRequest& request = p.request;
  request.variant = opt.variant;
  request.block_threads = opt.block;
  request.top_k = opt.top;
  request.histogram = !opt.no_histogram;
  request.repeat = opt.repeat;
  request.warmup = opt.warmup;
  request.seed = opt.seed;
  p.in = load_topo_inputs(opt.source);
  apply_placements(opt.placements, p.in.traffic, request);
  if (!opt.range.empty()) {
    if (request.mode != topo::PlacementMode::All)
      throw_usage("--range applies to --placements all", "drop --range, or sweep all placements");
    apply_range(opt.range, request);
  }
  for (const auto& c : p.in.configs)
    for (const auto& note : c.notes) p.notes.push_back(note);
  p.problem = topo::make_problem(p.in.traffic, p.in.configs);
  if (opt.chunk) {
    const std::uint64_t pairs = p.problem.pairs();
    request.batch_evaluations = opt.chunk > ~std::uint64_t(0) / pairs ? ~std::uint64_t(0) : opt.chunk * pairs;
  }
  // The variants (naive, delta) and --gpus are CUDA's: naming one asks for CUDA.
  std::string note;
  if (opt.backend == "cpu" && !opt.gpus.empty())
    throw_usage("--gpus applies to the CUDA backend", "drop --gpus, or use --backend cuda");
  if (!opt.gpus.empty()) parse_gpu_numbers(opt.gpus);  // its spelling, before asking for CUDA
  request.backend = !opt.backend.empty()                      ? backend_from_string(opt.backend)
                    : !opt.variant.empty() || !opt.gpus.empty() ? Backend::Cuda
                                                                : default_backend(engine, note);
  if (!note.empty()) p.notes.push_back(note);
  if (request.backend == Backend::Cuda) require_cuda(engine, "--backend cpu");
  return p;
}

unsigned threads_per_rank(const GlobalOptions& global, int local_ranks) {
  if (global.threads || local_ranks <= 1) return global.threads;
  return std::max(1u, std::thread::hardware_concurrency() / unsigned(local_ranks));
}

std::vector<int> devices_asked(const TopoOptions& opt) {
  return parse_gpu_list(opt.gpus.empty() ? "all" : opt.gpus, list_devices());
}

// Ranks > 0: work for rank 0 until it says stop; print nothing (rank 0 reports, errors included).
int run_rank(const TopoOptions& opt, const GlobalOptions& global, MpiSession& mpi) {
  const std::string where = fmt::format("rank {} on {}", mpi.rank(), mpi.host());
  std::unique_ptr<CudaContext> cuda;
  try {
    Engine engine(Engine::Options{threads_per_rank(global, mpi.local_size())});
    const Prepared p = prepare(opt, engine);
    if (p.request.backend == Backend::Cuda) {
      const std::vector<int> devices = devices_asked(opt);
      cuda = CudaContext::create(devices[std::size_t(mpi.local_rank()) % devices.size()]);
    }
    return topo::serve_sweep(p.problem, p.request, engine.pool(), cuda.get(), mpi.link(), where);
  } catch (const Error& e) {
    return topo::refuse_sweep(mpi.link(), e, where);
  } catch (const std::exception& e) {  // out of memory, a bug: rank 0 still hears of it
    return topo::refuse_sweep(mpi.link(), Error(ErrorKind::Internal, e.what()), where);
  }
}

int run_root(const TopoOptions& opt, const GlobalOptions& global, MpiSession* mpi, topo::RankRoster* roster) {
  if (!opt.json.empty()) check_output_folder(opt.json);
  if (!opt.csv.empty()) check_output_folder(opt.csv);
  if (!opt.checkpoint.empty()) check_output_folder(opt.checkpoint);
  const double max_time = parse_duration(opt.max_time, "--max-time");
  if (!(opt.checkpoint_every > 0)) throw_usage("--checkpoint-every must be more than 0 seconds");
  Engine engine(Engine::Options{threads_per_rank(global, mpi ? mpi->local_size() : 1)});
  Prepared prep = prepare(opt, engine);
  const topo::Problem& problem = prep.problem;
  const topo::EvalRequest& request = prep.request;
  for (const auto& note : prep.notes) fmt::print(stderr, "note: {}\n", note);

  topo::SweepSetup setup;
  std::vector<std::unique_ptr<CudaContext>> contexts;
  setup.cpu_workers = {&engine.pool()};
  if (request.backend == Backend::Cuda) {
    const std::vector<int> devices = devices_asked(opt);
    if (mpi) {
      contexts.push_back(CudaContext::create(devices[std::size_t(mpi->local_rank()) % devices.size()]));
      if (mpi->local_size() > int(devices.size()))
        fmt::print(stderr, "note: {} ranks on {} share {} GPU(s)\n", mpi->local_size(), mpi->host(), devices.size());
    } else {
      for (int d : devices) contexts.push_back(CudaContext::create(d));
    }
    for (auto& c : contexts) setup.gpu_workers.push_back(c.get());
  }
  setup.ranks = roster;
  if (mpi) setup.where = fmt::format("rank 0 on {}", mpi->host());
  setup.checkpoint = !opt.checkpoint.empty() ? opt.checkpoint : opt.resume;
  setup.checkpoint_every_s = opt.checkpoint_every;
  setup.resume = opt.resume;
  setup.max_time_s = max_time;
  setup.label = prep.in.traffic.source;
  // A failure or a kill keeps what was merged even when no checkpoint was asked for.
  setup.checkpoint_on_stop =
      fmt::format("topo-{:08x}.checkpoint", std::uint32_t(topo::sweep_fingerprint(problem, request) >> 32));

  const std::size_t workers = (request.backend == Backend::Cuda ? contexts.size() : 1) + (mpi ? mpi->size() - 1 : 0);
  fmt::print("topo: {} nodes from {}, {} timestamp(s), {} configuration(s), path cost {}, placements {}\n",
             problem.n, prep.in.traffic.source, problem.timestamps, problem.configs, prep.in.metric, opt.placements);
  if (workers > 1)
    fmt::print("workers: {}{}\n", mpi ? fmt::format("{} ranks", mpi->size()) : fmt::format("{} GPUs", contexts.size()),
               request.backend == Backend::Cuda ? " (CUDA)" : " (CPU)");
  std::fflush(stdout);

  InterruptFlag interrupt(true);
  std::atomic<bool> cancel{false}, abort{false};
  ProgressBar bar(stderr, 1000, ProgressBar::is_terminal(stderr));
  setup.note = [&](const std::string& text) { bar.message("note: " + text); };
  topo::EvalControl control;
  control.cancel = &cancel;
  control.abort = &abort;
  control.progress = [&](const topo::EvalProgress& p) {
    if (interrupt.terminated()) abort = true;
    else if (interrupt.raised()) cancel = true;
    if (p.evaluations_total == 0) return;
    const double done = double(p.evaluations_done) / double(p.evaluations_total);
    const double now = double(p.evaluations_done - p.evaluations_at_start);
    const std::optional<double> eta =
        now > 0 ? std::optional<double>(p.elapsed_s * double(p.evaluations_total - p.evaluations_done) / now)
                : std::nullopt;
    bar.start(std::size_t(done * 1000), fmt::format("{} {:.1f}%", p.pass, done * 100), eta);
  };
  const topo::EvalResult result = topo::evaluate(problem, request, control, setup);
  bar.clear();

  TopoContext ctx;
  ctx.traffic = &prep.in.traffic;
  ctx.configs = &prep.in.configs;
  ctx.metric = prep.in.metric;
  ctx.placements = opt.placements;
  ctx.qaplib_instance = prep.in.qaplib_instance;
  if (!opt.json.empty()) ctx.roofline = sweep_roofline(result, problem, request.backend, engine, contexts);
  fmt::print("{}", topo_text(result, ctx));
  if (!opt.csv.empty()) {
    write_text_atomically(opt.csv, topo_csv(result, ctx));
    fmt::print("wrote {}\n", opt.csv);
  }
  if (!opt.json.empty()) {
    write_text_atomically(opt.json, topo_json(result, ctx).dump(2) + "\n");
    fmt::print("wrote {}\n", opt.json);
  }
  if (result.complete) return 0;
  std::fflush(stdout);
  for (const auto& lost : result.lost) fmt::print(stderr, "lost: {} (they run again on resume)\n", lost);
  const std::string resume = result.checkpoint.empty()
                                 ? std::string()
                                 : resume_command(global.argv, result.checkpoint, mpi ? mpi->size() : 1);
  if (result.failed) {
    fmt::print(stderr, "error: {}\n", result.stopped);
    if (!resume.empty())
      fmt::print(stderr, "what was merged is in {}; once the cause is mended, resume with:\n  {}\n", result.checkpoint,
                 resume);
    return 1;
  }
  fmt::print(stderr, "{}: {} of the requested placements were evaluated\n",
             result.stopped == "terminated" ? "terminated" : "interrupted", result.placements);
  if (!resume.empty()) fmt::print(stderr, "resume with:\n  {}\n", resume);
  return result.stopped == "terminated" ? kTerminatedExitCode : kInterruptedExitCode;
}

// --placements search: one process (the chains run on one GPU or the CPU pool), no sweep options.
int run_search(const TopoOptions& opt, const GlobalOptions& global) {
  if (!opt.range.empty() || opt.top || !opt.variant.empty() || opt.repeat != 1 || opt.warmup || opt.no_histogram ||
      !opt.gpus.empty() || opt.chunk || !opt.checkpoint.empty() || !opt.resume.empty() || opt.max_time != "none")
    throw_usage("--range, --top, --variant, --repeat, --warmup, --no-histogram, --gpus, --chunk, --checkpoint, "
                "--resume and --max-time apply to sweeps",
                "drop them for --placements search");
  if (opt.estimate) throw_usage("--estimate applies to --placements bnb", "drop it for --placements search");
  if (opt.feeders) throw_usage("--feeders applies to --placements bnb", "drop it for --placements search");
  if (!opt.json.empty()) check_output_folder(opt.json);
  if (!opt.csv.empty()) check_output_folder(opt.csv);
  const TopoInputs in = load_topo_inputs(opt.source);
  return run_topo_search(opt.search, {&in, opt.source.qaplib, opt.backend, opt.seed, opt.json, opt.csv}, global);
}

// Where a proof's process runs, for the GPU it takes (bnb_devices.hpp).
ProofPlace proof_place(const MpiSession* mpi) {
  if (!mpi) return {};
  return ProofPlace{true, mpi->local_rank(), mpi->local_size(), mpi->host()};
}

// --placements bnb: one process (the proof runs on this process's threads, and with --backend cuda on its
// GPUs: GPU 0, or --gpus), or rank 0 of an mpirun (`ranks`: the others take subtrees too; its GPU is that of
// its rank on the host, or --gpus); its options are --time, --reference, --chart, --gpus and the checkpoints,
// the rest belong to sweeps or the search.
int run_bnb(const TopoOptions& opt, const GlobalOptions& global, MpiSession* mpi, topo::ProofRanks* ranks) {
  if (!opt.range.empty() || opt.top || !opt.variant.empty() || opt.repeat != 1 || opt.warmup || opt.no_histogram ||
      opt.chunk || opt.max_time != "none")
    throw_usage("--range, --top, --variant, --repeat, --warmup, --no-histogram, --chunk and --max-time "
                "apply to sweeps",
                "drop them for --placements bnb (--time S limits a proof)");
  if (opt.backend == "cpu" && !opt.gpus.empty())
    throw_usage("--gpus applies to the CUDA backend", "drop --gpus, or use --backend cuda");
  if (!opt.gpus.empty()) parse_gpu_numbers(opt.gpus);  // its spelling, before asking for CUDA
  const SearchOptions& s = opt.search;
  if (!s.algorithm.empty() || !s.params.empty() || !s.iterations_text.empty() || !s.target.empty())
    throw_usage("--algorithm, --param, --iterations and --target apply to --placements search",
                "drop them for --placements bnb (its incumbent comes from a short tabu search of its own)");
  if (opt.estimate) {
    if (mpi)
      throw_usage("--estimate runs in one process, not under mpirun", "run it without mpirun (it takes seconds)");
    if (!opt.checkpoint.empty() || !opt.resume.empty() || !s.time_text.empty() || !opt.csv.empty() ||
        !s.chart.empty() || !s.reference.empty() || !opt.gpus.empty() || opt.feeders || opt.backend == "cuda")
      throw_usage("--checkpoint, --resume, --time, --csv, --chart, --reference, --gpus, --feeders and --backend cuda "
                  "belong to the proof",
                  "drop them for --estimate, which runs on the CPU threads");
  }
  if (!opt.json.empty()) check_output_folder(opt.json);
  if (!opt.csv.empty()) check_output_folder(opt.csv);
  const TopoInputs in = load_topo_inputs(opt.source);
  if (opt.estimate)
    return run_topo_bnb_estimate({&in, opt.source.qaplib, *opt.estimate, opt.json, threads_per_rank(global, 1)},
                                 global);
  TopoBnbCall call;
  call.inputs = &in;
  call.qaplib_dat = opt.source.qaplib;
  call.backend = !opt.gpus.empty() ? "cuda" : opt.backend;  // --gpus asks for CUDA, as for sweeps
  call.gpus = opt.gpus;
  call.feeders = opt.feeders;
  call.place = proof_place(mpi);
  call.time_text = s.time_text;
  call.checkpoint = opt.checkpoint;
  call.checkpoint_every_s = opt.checkpoint_every;
  call.resume = opt.resume;
  call.reference = s.reference;
  call.chart = s.chart;
  call.json = opt.json;
  call.csv = opt.csv;
  call.threads = threads_per_rank(global, mpi ? mpi->local_size() : 1);
  call.ranks = ranks;
  return run_topo_bnb(call, global);
}

// Ranks > 0 of a proof: the subtrees rank 0 hands out, on this rank's CPU threads and with --backend cuda its
// GPUs (as rank 0's: bnb_devices.hpp), until it says stop; print nothing (rank 0 reports, errors included).
// SIGINT and SIGTERM (mpirun passes Ctrl-C on as SIGTERM) are left to rank 0, which stops every rank after
// writing its checkpoint.
int run_bnb_rank(const TopoOptions& opt, const GlobalOptions& global, MpiSession& mpi) {
  const std::string where = fmt::format("rank {} on {}", mpi.rank(), mpi.host());
  InterruptFlag left_to_rank_0(true);
  try {
    if (opt.backend == "cpu" && !opt.gpus.empty())  // rank 0 says so too; this rank must not wait for work
      throw_usage("--gpus applies to the CUDA backend", "drop --gpus, or use --backend cuda");
    const TopoInputs in = load_topo_inputs(opt.source);
    const topo::Problem problem = topo::make_problem(in.traffic, in.configs);
    Engine engine(Engine::Options{threads_per_rank(global, mpi.local_size())});
    const ProofDevices devices(!opt.gpus.empty() ? "cuda" : opt.backend, opt.gpus, opt.feeders, proof_place(&mpi),
                               engine);
    topo::BnbRequest request;
    request.label = in.traffic.source;
    request.evaluators = devices.evaluators();
    return topo::serve_proof(problem, request, engine.pool(), mpi.link(), where);
  } catch (const Error& e) {
    return topo::refuse_proof(mpi.link(), where + ": " + e.full_message());
  } catch (const std::exception& e) {
    return topo::refuse_proof(mpi.link(), where + ": " + e.what());
  }
}

int run_topo(const TopoOptions& opt, const GlobalOptions& global) {
  const LaunchInfo launch = launch_from_environment();
  if (opt.placements == "bnb" && launch.ranks <= 1) return run_bnb(opt, global, nullptr, nullptr);
  if (opt.placements == "search") {
    if (launch.ranks > 1)
      throw_usage("--placements search runs in one process, not under mpirun",
                  "run it without mpirun (its chains already fill a GPU)");
    return run_search(opt, global);
  }
  if (opt.placements != "bnb") check_no_search_options(opt.search);  // --time limits a proof
  if (opt.placements != "bnb" && opt.estimate)
    throw_usage("--estimate applies to --placements bnb", "drop it, or give --placements bnb to estimate a proof");
  if (opt.placements != "bnb" && opt.feeders)
    throw_usage("--feeders applies to --placements bnb", "drop it: a sweep's GPU has one feeding thread");
  if (launch.ranks > 1 && !mpi_built_in()) {
    if (launch.rank != 0) return 1;  // rank 0 says why
    MpiSession refuse(launch);       // throws the Error that explains it
  }
  std::optional<MpiSession> mpi;
  if (launch.ranks > 1) mpi.emplace(launch);
  if (opt.placements == "bnb") {  // under mpirun: rank 0 proves and hands subtrees to the other ranks
    if (mpi->rank() != 0) return run_bnb_rank(opt, global, *mpi);
    topo::ProofRanks ranks(mpi->link());  // its end sends every rank Stop, whatever stopped rank 0
    return run_bnb(opt, global, &*mpi, &ranks);
  }
  if (mpi && mpi->rank() != 0) return run_rank(opt, global, *mpi);
  std::optional<topo::RankRoster> roster;
  if (mpi) roster.emplace(mpi->link());
  try {
    return run_root(opt, global, mpi ? &*mpi : nullptr, roster ? &*roster : nullptr);
  } catch (...) {
    if (roster) roster->release_all();  // the other ranks wait for rank 0's answer
    throw;
  }
}

}  // namespace

Command add_topo_command(CLI::App& app, const GlobalOptions& global) {
  auto opt = std::make_shared<TopoOptions>();
  CLI::App* sub = app.add_subcommand(
      "topo", "Topology sweep: every placement of the nodes x topology configurations x timestamps (a QAP)");
  sub->add_option(
      "--traffic", opt->source.traffic,
      "Traffic file or folder: SNDlib native (.txt) or XML (a folder: one file per timestamp), CSV "
      "long form (timestamp,src,dst,value), dense CSV matrices");
  sub->add_option("--generate", opt->source.generate,
                  "Generated traffic, e.g. gravity:n=8,t=32,seed=1\n" + topo::traffic_spec_help());
  sub->add_option("--qaplib", opt->source.qaplib, "A QAPLIB .dat instance (A: path costs, B: traffic)");
  sub->add_option(
         "--topology", opt->source.topologies,
         "Topology file (SNDlib links, nexthop or pathcost tables) or family; repeat for several. Default: "
         "the traffic file's own links\n" +
             topo::topology_spec_help())
      ->allow_extra_args(false);
  sub->add_option("--placements", opt->placements,
                  "all | sample:N | identity | FILE (node names per line) | search (tabu search or annealing) | bnb "
                  "(branch and bound: proves the best placement optimal)")
      ->capture_default_str();
  sub->add_option("--range", opt->range,
                  "Placement indices START:END of an exhaustive sweep (split and resume)");
  sub->add_option("--seed", opt->seed, "Seed of sample:N and of the search")->capture_default_str();
  sub->add_option("--metric", opt->source.metric, "Path cost: hops or weighted (link lengths)")
      ->check(CLI::IsMember({"hops", "weighted"}))
      ->capture_default_str();
  sub->add_option("--top", opt->top,
                  "Also list the K best placements (of the summed traffic when there are "
                  "several timestamps)")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  sub->add_flag("--no-histogram", opt->no_histogram,
                "Skip the 64-bin histogram of each (timestamp, configuration)");
  sub->add_option("--backend", opt->backend, "cpu or cuda (default: cuda when a device is usable, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  sub->add_option("--variant", opt->variant, "CUDA variant: delta (default) or naive")
      ->check(CLI::IsMember({"delta", "naive"}));
  sub->add_option("--block", opt->block, "CUDA threads per block")->capture_default_str();
  sub->add_option("--gpus", opt->gpus,
                  "GPUs to sweep on: all (default) or a list such as 0,1; under mpirun each rank takes one "
                  "(by its rank on the host). With --placements bnb: the GPUs that bound batches of nodes (default "
                  "GPU 0; under mpirun the GPU of the rank on its host), --feeders CPU threads feeding each (a GPU "
                  "listed twice gets twice as many); under mpirun every rank feeds all the GPUs listed");
  sub->add_option("--feeders", opt->feeders,
                  "With --placements bnb --backend cuda: CPU threads feeding each GPU batches of nodes, so that one "
                  "builds the next batch while another's runs (default: the threads shared among the GPUs, up to "
                  "16 a GPU; the threads left over dive on the CPU)")
      ->check(CLI::Range(1, 16));
  sub->add_option("--chunk", opt->chunk,
                  "Placements per chunk of work handed to a GPU or rank (default: the backend's batch); the "
                  "results do not depend on it except in the last bits of real-valued means")
      ->check(CLI::Range(std::uint64_t(1), ~std::uint64_t(0)));
  sub->add_option("--checkpoint", opt->checkpoint,
                  "Keep the sweep's (or the proof's) state in this file (written atomically every --checkpoint-every "
                  "seconds and when it stops), for --resume");
  sub->add_option("--checkpoint-every", opt->checkpoint_every, "Seconds between checkpoints")->capture_default_str();
  sub->add_option("--resume", opt->resume,
                  "Continue the sweep of this checkpoint (same inputs and options; it keeps being written)");
  sub->add_option("--estimate", opt->estimate,
                  "With --placements bnb: instead of proving, estimate how many nodes the proof will explore from "
                  "this many random probes of its tree (Knuth's estimate; 10000 take seconds at n = 20)");
  sub->add_option("--max-time", opt->max_time,
                  "Refuse a sweep whose measured estimate exceeds this (90, 10m, 2h; default none)")
      ->capture_default_str();
  sub->add_option("--repeat", opt->repeat, "Timed repetitions (the results are the last one's)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--warmup", opt->warmup, "Untimed repetitions first")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  sub->add_option("--json", opt->json, "Write every result as JSON to this file");
  sub->add_option("--csv", opt->csv, "Write one row per (timestamp, configuration) as CSV to this file");
  add_search_options(*sub, opt->search);
  return {sub, [opt, &global] { return run_topo(*opt, global); }};
}

}  // namespace ks::cli
