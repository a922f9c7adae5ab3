// ks.topo: a topology sweep, search or proof in this process, as `kernelscope-cli topo` does (cli/cmd_topo.cpp,
// cli/topo_search.cpp, cli/topo_bnb.cpp) without MPI, several GPUs or checkpoints: the same inputs
// (app/inputs/topo_inputs), checks and JSON report (app/report/topo_report, topo_search_report, topo_bnb_report).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <cmath>

#include "calls.hpp"
#include "cli/backend_choice.hpp"
#include "cli/request_checks.hpp"
#include "core/error.hpp"
#include "inputs/topo_inputs.hpp"
#include "long_work.hpp"
#include "registry/registry.hpp"
#include "report/topo_bnb_report.hpp"
#include "report/topo_report.hpp"
#include "report/topo_search_report.hpp"
#include "result.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/gpu_feeders.hpp"
#include "topo/search/search.hpp"

namespace ks::python {

namespace py = pybind11;

namespace {

struct TopoCall {
  inputs::TopoSource source;
  std::string placements = "all";
  std::string backend;
  std::string variant;
  double time_s = 0;             // search: seconds (0: not given)
  std::uint64_t iterations = 0;  // search: per chain (0: not given)
  std::uint64_t seed = 1;
  int top = 0;
  bool histogram = true;
  unsigned threads = 0;
  std::vector<std::string> params;  // search: the registry's "search" parameters
  py::object progress;
};

constexpr double kDefaultSearchSeconds = 10;  // as the CLI's --time

Backend topo_backend(const TopoCall& c, Engine& engine, Result& result) {
  std::string note;
  const Backend b = !c.backend.empty()   ? backend_from_string(c.backend)
                    : !c.variant.empty() ? Backend::Cuda
                                         : cli::default_backend(engine, note);
  if (!note.empty()) result.notes.push_back(note);
  if (b == Backend::Cuda) cli::require_cuda(engine, "backend='cpu'");
  return b;
}

report::TopoContext context_of(const inputs::TopoInputs& in, const std::string& placements) {
  report::TopoContext ctx;
  ctx.traffic = &in.traffic;
  ctx.configs = &in.configs;
  ctx.metric = in.metric;
  ctx.placements = placements;
  ctx.qaplib_instance = in.qaplib_instance;
  return ctx;
}

Result search(Engines& engines, const TopoCall& c, const inputs::TopoInputs& in) {
  if (c.top || !c.variant.empty() || !c.histogram)
    throw_usage("top, variant and histogram apply to sweeps", "drop them for placements='search'");
  topo::SearchRequest request;
  request.params = topo::search_params_from(
      cli::params_from_assignments(KernelRegistry::builtin().get("search"), c.params));
  request.seed = c.seed;
  request.time_s = c.time_s;
  request.iterations = c.iterations;
  if (request.time_s == 0 && request.iterations == 0) request.time_s = kDefaultSearchSeconds;
  const topo::Problem problem = topo::make_problem(in.traffic, in.configs);
  const auto ref = report::search_reference("", c.source.qaplib, problem.n);

  Engine& engine = engines.get(c.threads);
  Result result;
  request.backend = topo_backend(c, engine, result);
  CudaContext* cuda = request.backend == Backend::Cuda ? &engine.cuda() : nullptr;
  LongWork work(c.progress);
  topo::SearchControl control;
  control.cancel = &work.cancel;
  control.progress = [&](const topo::SearchProgress& p) {
    work.report(p.fraction, fmt::format("configuration {}/{}: best {:.10g}", p.configuration + 1,
                                        p.configurations, p.best.value));
  };
  topo::SearchResult r;
  {
    py::gil_scoped_release release;
    r = topo::search(problem, request, control, engine.pool(), cuda);
  }
  work.finish();
  result.report_json = report::search_json(r, context_of(in, "search"), ref);
  return result;
}

// placements="bnb": the proof on the CPU threads (backend='cuda': and GPU 0); time= limits it (the gap is
// reported when it stops).
Result prove(Engines& engines, const TopoCall& c, const inputs::TopoInputs& in) {
  if (c.top || !c.variant.empty() || !c.histogram || c.iterations || !c.params.empty())
    throw_usage("top, variant, histogram, iterations and the search's parameters do not apply to placements='bnb'",
                "drop them (time= limits a proof)");
  topo::BnbRequest request;
  request.time_s = c.time_s;
  request.label = in.traffic.source;
  const topo::Problem problem = topo::make_problem(in.traffic, in.configs);
  const auto ref = report::search_reference("", c.source.qaplib, problem.n);
  Engine& engine = engines.get(c.threads);
  // backend='cuda': threads feed GPU 0 batches of nodes (as many as the CLI's default), the others dive.
  std::unique_ptr<topo::GpuFeeders> feeders;
  if (c.backend == "cuda") {
    feeders = std::make_unique<topo::GpuFeeders>(cli::require_cuda(engine, "backend='cpu'"),
                                                 topo::default_feeders_per_gpu(engine.pool().size(), 1));
    request.evaluators = feeders->evaluators();
  }
  Result result;
  LongWork work(c.progress);
  topo::BnbControl control;
  control.cancel = &work.cancel;
  control.progress = [&](const topo::BnbProgress& p) {
    work.report(p.fraction, fmt::format("configuration {}/{}: bound {:.10g}, best {:.10g}", p.configuration + 1,
                                        p.configurations, p.bound.value, p.incumbent.value));
  };
  topo::BnbResult r;
  {
    py::gil_scoped_release release;
    r = topo::prove(problem, request, control, engine.pool());
  }
  work.finish();
  result.report_json = report::bnb_json(r, context_of(in, "bnb"), ref);
  return result;
}

Result sweep(Engines& engines, const TopoCall& c, const inputs::TopoInputs& in) {
  if (!c.params.empty() || c.time_s || c.iterations)
    throw_usage("time, iterations and the search's parameters apply to placements='search'",
                "add placements='search', or drop them");
  topo::EvalRequest request;
  request.variant = c.variant;
  request.top_k = c.top;
  request.histogram = c.histogram;
  request.seed = c.seed;
  inputs::apply_placements(c.placements, in.traffic, request);
  const topo::Problem problem = topo::make_problem(in.traffic, in.configs);

  Engine& engine = engines.get(c.threads);
  Result result;
  request.backend = topo_backend(c, engine, result);
  for (const auto& config : in.configs)
    for (const auto& note : config.notes) result.notes.push_back(note);
  CudaContext* cuda = request.backend == Backend::Cuda ? &engine.cuda() : nullptr;
  LongWork work(c.progress);
  topo::EvalControl control;
  control.cancel = &work.cancel;
  control.progress = [&](const topo::EvalProgress& p) {
    if (p.evaluations_total == 0) return;
    work.report(double(p.evaluations_done) / double(p.evaluations_total), p.pass);
  };
  // As the CLI's sweep in one process (one worker: the pool or the GPU), without its checkpoint files.
  topo::SweepSetup setup;
  setup.cpu_workers = {&engine.pool()};
  if (cuda) setup.gpu_workers = {cuda};
  setup.label = in.traffic.source;
  setup.note = [&](const std::string& text) { result.notes.push_back(text); };
  topo::EvalResult r;
  {
    py::gil_scoped_release release;
    r = topo::evaluate(problem, request, control, setup);
  }
  work.finish();
  ComputePeaks peaks = engine.peaks(request.backend);
  report::TopoContext ctx = context_of(in, c.placements);
  ctx.roofline = report::sweep_roofline(r, problem, peaks);
  result.report_json = report::topo_json(r, ctx);
  return result;
}

Result topo_call(Engines& engines, const TopoCall& c) {
  if (!(c.time_s >= 0) || !std::isfinite(c.time_s))
    throw_usage(fmt::format("time={} is not a time in seconds", c.time_s), "give seconds > 0, e.g. time=10");
  const inputs::TopoInputs in = inputs::load_topo_inputs(c.source);
  if (c.placements == "bnb") return prove(engines, c, in);
  return c.placements == "search" ? search(engines, c, in) : sweep(engines, c, in);
}

}  // namespace

void bind_topo(py::module_& m, std::shared_ptr<Engines> engines) {
  m.def(
      "topo",
      [engines](const std::string& qaplib, const std::string& traffic, const std::string& generate,
                const std::vector<std::string>& topologies, const std::string& metric,
                const std::string& placements, const std::string& backend, const std::string& variant,
                double time_s, std::uint64_t iterations, std::uint64_t seed, int top, bool histogram,
                unsigned threads, const std::vector<std::string>& params, py::object progress) {
        TopoCall c;
        c.source.qaplib = qaplib;
        c.source.traffic = traffic;
        c.source.generate = generate;
        c.source.topologies = topologies;
        if (!metric.empty()) c.source.metric = metric;
        c.placements = placements;
        c.backend = backend;
        c.variant = variant;
        c.time_s = time_s;
        c.iterations = iterations;
        c.seed = seed;
        c.top = top;
        c.histogram = histogram;
        c.threads = threads;
        c.params = params;
        c.progress = std::move(progress);
        return topo_call(*engines, c);
      },
      py::arg("qaplib"), py::arg("traffic"), py::arg("generate"), py::arg("topologies"), py::arg("metric"),
      py::arg("placements"), py::arg("backend"), py::arg("variant"), py::arg("time"), py::arg("iterations"),
      py::arg("seed"), py::arg("top"), py::arg("histogram"), py::arg("threads"), py::arg("params"),
      py::arg("progress"));
}

}  // namespace ks::python
