// `topo --placements search`: tabu search or annealing over the placements, with the best cost, its
// placement, the gap to a reference, rates, and (--json, --csv, --chart) the convergence curve. Progress with
// the best so far on stderr; Ctrl-C stops after the current sync interval, prints the best so far and exits
// 130.
#include "cli/topo_search.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cmath>

#include "cli/backend_choice.hpp"
#include "inputs/image_files.hpp"
#include "cli/interrupt.hpp"
#include "cli/progress_bar.hpp"
#include "cli/request_checks.hpp"
#include "report/topo_report.hpp"
#include "report/topo_search_report.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "io/atomic_file.hpp"
#include "registry/registry.hpp"
#include "topo/inputs/numbers.hpp"
#include "topo/search/search.hpp"

namespace ks::cli {

using inputs::check_output_folder;
using inputs::TopoInputs;
using report::search_chart_svg;
using report::search_json;
using report::search_reference;
using report::search_text;
using report::SearchReference;
using report::topo_csv;
using report::TopoContext;

namespace {

constexpr double kDefaultSeconds = 10;

double parse_number(const std::string& text, const std::string& what, const std::string& hint) {
  const auto v = topo::parse_double(text);
  if (!v || !std::isfinite(*v)) throw_usage(fmt::format("{} '{}' is not a number", what, text), hint);
  return *v;
}

topo::SearchRequest request_from(const SearchOptions& opt, std::uint64_t seed) {
  const KernelSpec& spec = KernelRegistry::builtin().get("search");
  std::vector<std::string> assignments;
  if (!opt.algorithm.empty()) {
    for (const auto& a : opt.params)
      if (a.rfind("algorithm=", 0) == 0)
        throw_usage("the algorithm is given twice (--algorithm and --param algorithm=...)", "give it once");
    assignments.push_back("algorithm=" + opt.algorithm);
  }
  assignments.insert(assignments.end(), opt.params.begin(), opt.params.end());
  topo::SearchRequest r;
  r.params = topo::search_params_from(params_from_assignments(spec, assignments));
  r.seed = seed;
  if (!opt.time_text.empty()) {
    r.time_s = parse_number(opt.time_text, "--time", "give the search time in seconds, e.g. --time 10");
    if (!(r.time_s > 0))
      throw_usage(fmt::format("--time {} searches nothing", opt.time_text),
                  "give a time in seconds > 0, e.g. --time 10");
  }
  if (!opt.iterations_text.empty()) {
    const auto d = topo::parse_decimal(opt.iterations_text);
    if (!d || d->decimals != 0 || d->mantissa <= 0)
      throw_usage(fmt::format("--iterations '{}' is not a whole number >= 1", opt.iterations_text),
                  "give the iterations per chain, e.g. --iterations 100000");
    r.iterations = std::uint64_t(d->mantissa);
  }
  if (r.time_s == 0 && r.iterations == 0) r.time_s = kDefaultSeconds;
  if (!opt.target.empty())
    r.target = parse_number(opt.target, "--target", "give the cost at which to stop, e.g. --target 6124");
  return r;
}

std::string stop_text(const topo::SearchRequest& r) {
  std::string s;
  if (r.time_s > 0) s += fmt::format("after {:g} s", r.time_s);
  if (r.iterations)
    s += fmt::format("{}after {} iterations per chain", s.empty() ? "" : " or ", r.iterations);
  if (r.target) s += fmt::format(" or at cost {:.15g}", *r.target);
  return s;
}

}  // namespace

void add_search_options(CLI::App& sub, SearchOptions& opt) {
  const std::string group = "Search (--placements search)";
  sub.add_option("--algorithm", opt.algorithm, "Search algorithm: tabu (default) or anneal")
      ->check(CLI::IsMember({"tabu", "anneal"}))
      ->group(group);
  sub.add_option("-p,--param", opt.params,
                 "Search parameter NAME=VALUE (see `kernelscope-cli list search`); repeat for several")
      ->group(group);
  sub.add_option(
         "--time", opt.time_text,
         "Search for this many seconds (split evenly over the configurations); 10 when neither --time nor "
         "--iterations is given. With --placements bnb: stop the proof after this long (90, 10m, 2h), keeping the "
         "gap")
      ->group(group);
  sub.add_option(
         "--iterations", opt.iterations_text,
         "Stop after N iterations per chain and configuration (tabu moves or annealing steps); seeded "
         "runs with --iterations repeat exactly")
      ->group(group);
  sub.add_option("--target", opt.target, "Stop a configuration's search once its best cost is at most this")
      ->group(group);
  sub.add_option("--reference", opt.reference,
                 "Report the gap to this cost (default: the best known in the .sln beside a QAPLIB .dat); search and bnb")
      ->group(group);
  sub.add_option("--chart", opt.chart, "Write the best configuration's convergence curve as SVG to this file (bnb: the bound and the best "
                 "found over time)")
      ->group(group);
}

void check_no_search_options(const SearchOptions& opt) {
  const bool any = !opt.algorithm.empty() || !opt.params.empty() || !opt.time_text.empty() ||
                   !opt.iterations_text.empty() || !opt.target.empty() || !opt.reference.empty() ||
                   !opt.chart.empty();
  if (any)
    throw_usage(
        "--algorithm, --param, --time, --iterations, --target, --reference and --chart apply to "
        "--placements search",
        "add --placements search, or drop them");
}

int run_topo_search(const SearchOptions& opt, const TopoSearchCall& call, const GlobalOptions& global) {
  const topo::SearchRequest base = request_from(opt, call.seed);
  for (const std::string& out : {call.json, call.csv, opt.chart})
    if (!out.empty()) check_output_folder(out);
  const TopoInputs& in = *call.inputs;
  for (const auto& c : in.configs)
    for (const auto& note : c.notes) fmt::print(stderr, "note: {}\n", note);
  const topo::Problem problem = topo::make_problem(in.traffic, in.configs);
  const std::optional<SearchReference> ref = search_reference(opt.reference, call.qaplib_dat, problem.n);

  Engine engine(Engine::Options{global.threads});
  std::string note;
  topo::SearchRequest request = base;
  request.backend = !call.backend.empty() ? backend_from_string(call.backend) : default_backend(engine, note);
  if (!note.empty()) fmt::print(stderr, "note: {}\n", note);
  CudaContext* cuda = request.backend == Backend::Cuda ? &require_cuda(engine, "--backend cpu") : nullptr;
  fmt::print(
      "topo: {} nodes from {}, {} timestamp(s), {} configuration(s), path cost {}, placements search\n",
      problem.n, in.traffic.source, problem.timestamps, problem.configs, in.metric);
  fmt::print("search: {} on {}, seed {}, stop {}\n", topo::to_string(request.params.algorithm),
             to_string(request.backend), request.seed, stop_text(request));
  std::fflush(stdout);

  InterruptFlag interrupt;
  std::atomic<bool> cancel{false};
  ProgressBar bar(stderr, 1000, ProgressBar::is_terminal(stderr));
  topo::SearchControl control;
  control.cancel = &cancel;
  control.progress = [&](const topo::SearchProgress& p) {
    if (interrupt.raised()) cancel = true;
    const double f = std::clamp(p.fraction, 0.0, 1.0);
    const std::optional<double> eta = f > 0 ? std::optional<double>(p.elapsed_s * (1 - f) / f) : std::nullopt;
    const std::string best = problem.exact ? topo::format_scaled(p.best.scaled, problem.decimals)
                                           : fmt::format("{:.10g}", p.best.value);
    bar.start(std::size_t(f * 1000),
              fmt::format("configuration {}/{}: best {}", p.configuration + 1, p.configurations, best), eta);
  };
  const topo::SearchResult result = topo::search(problem, request, control, engine.pool(), cuda);
  bar.clear();

  TopoContext ctx;
  ctx.traffic = &in.traffic;
  ctx.configs = &in.configs;
  ctx.metric = in.metric;
  ctx.placements = "search";
  ctx.qaplib_instance = in.qaplib_instance;
  fmt::print("{}", search_text(result, ctx, ref));
  if (!call.csv.empty()) {
    write_text_atomically(call.csv, topo_csv(topo::as_eval_result(result), ctx));
    fmt::print("wrote {}\n", call.csv);
  }
  if (!call.json.empty()) {
    write_text_atomically(call.json, search_json(result, ctx, ref).dump(2) + "\n");
    fmt::print("wrote {}\n", call.json);
  }
  if (!opt.chart.empty()) {
    write_text_atomically(opt.chart, search_chart_svg(result, ctx, ref));
    fmt::print("wrote {}\n", opt.chart);
  }
  if (!result.complete) {
    std::fflush(stdout);
    fmt::print(stderr, "interrupted: the best placement found so far is shown\n");
    return kInterruptedExitCode;
  }
  return 0;
}

}  // namespace ks::cli
