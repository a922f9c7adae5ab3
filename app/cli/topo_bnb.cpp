// `topo --placements bnb`: proves the best placement of each configuration optimal by branch and bound, with
// progress (nodes, open subtrees, bound, incumbent, gap, an estimate of the time left) on stderr. Ctrl-C or
// --time stop it with the best found and the gap proved so far (exit 130 for Ctrl-C), resumable from the
// checkpoint when one was written.
#include "cli/topo_bnb.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <atomic>
#include <cmath>

#include "cli/interrupt.hpp"
#include "cli/progress_bar.hpp"
#include "cli/request_checks.hpp"
#include "cli/topo_scale.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "inputs/image_files.hpp"
#include "io/atomic_file.hpp"
#include "report/topo_bnb_report.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/bnb_ranks.hpp"
#include "topo/inputs/numbers.hpp"

namespace ks::cli {

using inputs::check_output_folder;
using report::TopoContext;

int run_topo_bnb(const TopoBnbCall& call, const GlobalOptions& global) {
  for (const std::string& out : {call.json, call.csv, call.chart, call.checkpoint})
    if (!out.empty()) check_output_folder(out);
  topo::BnbRequest request;
  if (!call.time_text.empty()) {
    request.time_s = parse_duration(call.time_text, "--time");
    if (!(request.time_s > 0))
      throw_usage(fmt::format("--time {} proves nothing", call.time_text),
                  "give the longest run in seconds (90, 10m, 2h), or leave --time out to run until proved");
  }
  if (!(call.checkpoint_every_s > 0)) throw_usage("--checkpoint-every must be more than 0 seconds");
  request.checkpoint = call.checkpoint;
  request.checkpoint_every_s = call.checkpoint_every_s;
  request.resume = call.resume;
  const inputs::TopoInputs& in = *call.inputs;
  request.label = in.traffic.source;
  for (const auto& c : in.configs)
    for (const auto& note : c.notes) fmt::print(stderr, "note: {}\n", note);
  const topo::Problem problem = topo::make_problem(in.traffic, in.configs);
  const auto ref = report::search_reference(call.reference, call.qaplib_dat, problem.n);

  request.ranks = call.ranks;
  Engine engine(Engine::Options{call.threads ? call.threads : global.threads});
  // --backend cuda: CPU threads feed each GPU batches of nodes, the others dive as on the CPU.
  const ProofDevices devices(call.backend, call.gpus, call.feeders, call.place, engine);
  request.evaluators = devices.evaluators();
  for (const std::string& note : devices.notes()) fmt::print(stderr, "note: {}\n", note);
  fmt::print("topo: {} nodes from {}, {} timestamp(s), {} configuration(s), path cost {}, placements bnb\n", problem.n,
             in.traffic.source, problem.timestamps, problem.configs, in.metric);
  fmt::print("bnb: branch and bound with the Gilmore-Lawler bound on CPU ({} threads){}{}\n", engine.pool().size(),
             devices.labels().empty() ? "" : fmt::format(", node batches on {}", fmt::join(devices.labels(), ", ")),
             request.time_s > 0 ? fmt::format(", stop after {:g} s", request.time_s) : "");
  if (call.ranks) fmt::print("workers: {} ranks (subtrees handed out by rank 0)\n", call.ranks->ranks());
  std::fflush(stdout);

  InterruptFlag interrupt(true);
  std::atomic<bool> cancel{false};
  ProgressBar bar(stderr, 1000, ProgressBar::is_terminal(stderr));
  const auto text = [&](const topo::Cost& c) {
    return problem.exact ? topo::format_scaled(c.scaled, problem.decimals) : fmt::format("{:.10g}", c.value);
  };
  topo::BnbControl control;
  control.cancel = &cancel;
  control.progress = [&](const topo::BnbProgress& p) {
    if (interrupt.raised()) cancel = true;
    const double f = std::clamp(p.fraction, 0.0, 1.0);
    const std::optional<double> eta = f > 0 ? std::optional<double>(p.elapsed_s * (1 - f) / f) : std::nullopt;
    bar.start(std::size_t(f * 1000),
              fmt::format("configuration {}/{}: {} nodes, {} open, bound {}, best {}, gap {:.2f}%",
                          p.configuration + 1, p.configurations, p.nodes, p.open, text(p.bound), text(p.incumbent),
                          report::proof_gap_percent(p.incumbent, p.bound)),
              eta);
  };
  const topo::BnbResult result = topo::prove(problem, request, control, engine.pool());
  bar.clear();

  TopoContext ctx;
  ctx.traffic = &in.traffic;
  ctx.configs = &in.configs;
  ctx.metric = in.metric;
  ctx.placements = "bnb";
  ctx.qaplib_instance = in.qaplib_instance;
  fmt::print("{}", report::bnb_text(result, ctx, ref));
  if (!call.csv.empty()) {
    write_text_atomically(call.csv, report::topo_csv(topo::as_eval_result(result), ctx));
    fmt::print("wrote {}\n", call.csv);
  }
  if (!call.json.empty()) {
    write_text_atomically(call.json, report::bnb_json(result, ctx, ref).dump(2) + "\n");
    fmt::print("wrote {}\n", call.json);
  }
  if (!call.chart.empty()) {
    write_text_atomically(call.chart, report::bnb_chart_svg(result, ctx));
    fmt::print("wrote {}\n", call.chart);
  }
  if (result.complete) return 0;
  std::fflush(stdout);
  if (!result.checkpoint.empty())
    fmt::print(stderr, "resume with:\n  {}\n",
               resume_command(global.argv, result.checkpoint, call.ranks ? call.ranks->ranks() : 1));
  if (result.stopped_by == "time") return 0;
  return interrupt.terminated() ? kTerminatedExitCode : kInterruptedExitCode;
}

}  // namespace ks::cli
