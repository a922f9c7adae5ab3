// `topo`: the topology sweep — every placement of the traffic's nodes (or a sample, or given ones) on every
// topology configuration, for every timestamp. Prints the best placement per (timestamp, configuration) and a
// summary; --json/--csv write everything (atomically). Progress with ETA on stderr; Ctrl-C stops between
// batches, reports what was evaluated (resumable with --range) and exits 130.
#include <fmt/format.h>

#include <atomic>
#include <memory>

#include "cli/backend_choice.hpp"
#include "cli/commands.hpp"
#include "cli/image_files.hpp"
#include "cli/interrupt.hpp"
#include "cli/progress_bar.hpp"
#include "cli/request_checks.hpp"
#include "cli/topo_inputs.hpp"
#include "cli/topo_report.hpp"
#include "cli/topo_search.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "io/atomic_file.hpp"
#include "topo/topology.hpp"
#include "topo/traffic_generators.hpp"

namespace ks::cli {

namespace {

struct TopoOptions {
  TopoSource source;
  std::string placements = "all";
  std::string range;
  std::uint64_t seed = 1;
  int top = 0;
  bool no_histogram = false;
  std::string backend;  // empty: CUDA when a device is usable (or --variant names a CUDA variant), else the CPU
  std::string variant;
  int block = 128;
  int repeat = 1;
  int warmup = 0;
  std::string json, csv;
  SearchOptions search;  // --placements search (cli/topo_search.*)
};

int run_topo(const TopoOptions& opt, const GlobalOptions& global) {
  topo::EvalRequest request;
  request.variant = opt.variant;
  request.block_threads = opt.block;
  request.top_k = opt.top;
  request.histogram = !opt.no_histogram;
  request.repeat = opt.repeat;
  request.warmup = opt.warmup;
  request.seed = opt.seed;
  if (!opt.json.empty()) check_output_folder(opt.json);
  if (!opt.csv.empty()) check_output_folder(opt.csv);

  const TopoInputs in = load_topo_inputs(opt.source);
  if (opt.placements == "search") {
    if (!opt.range.empty() || opt.top || !opt.variant.empty() || opt.repeat != 1 || opt.warmup || opt.no_histogram)
      throw_usage("--range, --top, --variant, --repeat, --warmup and --no-histogram apply to sweeps",
                  "drop them for --placements search");
    return run_topo_search(opt.search, {&in, opt.source.qaplib, opt.backend, opt.seed, opt.json, opt.csv}, global);
  }
  check_no_search_options(opt.search);
  apply_placements(opt.placements, in.traffic, request);
  if (!opt.range.empty()) {
    if (request.mode != topo::PlacementMode::All)
      throw_usage("--range applies to --placements all", "drop --range, or sweep all placements");
    apply_range(opt.range, request);
  }
  for (const auto& c : in.configs)
    for (const auto& note : c.notes) fmt::print(stderr, "note: {}\n", note);
  const topo::Problem problem = topo::make_problem(in.traffic, in.configs);

  Engine engine(Engine::Options{global.threads});
  // The variants (naive, delta) are CUDA's: naming one asks for CUDA.
  std::string note;
  request.backend = !opt.backend.empty() ? backend_from_string(opt.backend)
                    : !opt.variant.empty() ? Backend::Cuda
                                           : default_backend(engine, note);
  if (!note.empty()) fmt::print(stderr, "note: {}\n", note);
  CudaContext* cuda = request.backend == Backend::Cuda ? &require_cuda(engine, "--backend cpu") : nullptr;
  fmt::print("topo: {} nodes from {}, {} timestamp(s), {} configuration(s), path cost {}, placements {}\n",
             problem.n, in.traffic.source, problem.timestamps, problem.configs, in.metric, opt.placements);

  InterruptFlag interrupt;
  std::atomic<bool> cancel{false};
  ProgressBar bar(stderr, 1000, ProgressBar::is_terminal(stderr));
  topo::EvalControl control;
  control.cancel = &cancel;
  control.progress = [&](const topo::EvalProgress& p) {
    if (interrupt.raised()) cancel = true;
    if (p.evaluations_total == 0) return;
    const double done = double(p.evaluations_done) / double(p.evaluations_total);
    const std::optional<double> eta =
        done > 0 ? std::optional<double>(p.elapsed_s * (1 - done) / done) : std::nullopt;
    bar.start(std::size_t(done * 1000), fmt::format("{} {:.1f}%", p.pass, done * 100), eta);
  };
  const topo::EvalResult result = topo::evaluate(problem, request, control, engine.pool(), cuda);
  bar.clear();

  TopoContext ctx;
  ctx.traffic = &in.traffic;
  ctx.configs = &in.configs;
  ctx.metric = in.metric;
  ctx.placements = opt.placements;
  ctx.qaplib_instance = in.qaplib_instance;
  fmt::print("{}", topo_text(result, ctx));
  if (!opt.csv.empty()) {
    write_text_atomically(opt.csv, topo_csv(result, ctx));
    fmt::print("wrote {}\n", opt.csv);
  }
  if (!opt.json.empty()) {
    write_text_atomically(opt.json, topo_json(result, ctx).dump(2) + "\n");
    fmt::print("wrote {}\n", opt.json);
  }
  if (!result.complete) {
    std::fflush(stdout);
    fmt::print(stderr, "interrupted: {} of the requested placements were evaluated\n", result.placements);
    return kInterruptedExitCode;
  }
  return 0;
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
                  "all | sample:N | identity | FILE (node names per line) | search (tabu search or annealing)")
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
