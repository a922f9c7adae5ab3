// The Topology document: inputs, settings, sweeps on the worker, selection. Exports are in
// topology_exports.cpp, building inputs in topology_inputs_build.cpp.
#include "session/topology/topology_document.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "inputs/topo_inputs.hpp"
#include "core/cuda_context.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "session/topology/topology_inputs_build.hpp"

namespace ks::app {

namespace {

topo::EvalRequest request_for(const TopologyInputs& in, const TopologySettings& s) {
  topo::EvalRequest r;
  inputs::apply_placements(s.placements, in.traffic, r);
  r.backend = s.backend;
  r.top_k = s.top_k;
  r.seed = s.seed;
  r.histogram = true;
  return r;
}

}  // namespace

std::string evaluation_count_text(long double count) {
  const double v = double(count);
  if (v >= 1e12) return fmt::format("{:.3g} T", v / 1e12);
  if (v >= 1e9) return fmt::format("{:.2f} G", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.2f} M", v / 1e6);
  return fmt::format("{:.0f}", v);
}

TopologyDocument::TopologyDocument(Options options)
    : options_(options), pool_(std::make_unique<ThreadPool>(options.cpu_threads)) {
  worker_ = std::make_unique<Worker>([this](const std::string& label, std::exception_ptr e) {
    try {
      std::rethrow_exception(e);
    } catch (const Error& err) {
      notify(true, label + ": " + err.full_message());
    } catch (const std::exception& err) {
      notify(true, label + " failed: " + err.what() + ". This is a bug of kernelscope");
    }
  });
}

TopologyDocument::~TopologyDocument() {
  cancel_ = true;
  worker_.reset();  // joins: no job runs past this point
}

void TopologyDocument::notify(bool error, std::string text) {
  if (error) last_error_ = text;
  notices_.push_back({error, std::move(text)});
}

// ---- inputs ----

void TopologyDocument::set_inputs(std::shared_ptr<const TopologyInputs> next) {
  for (const std::string& note : next->notes) notify(false, note);
  inputs_ = std::move(next);
  changed_since_run_ = true;
  last_error_.clear();
}

void TopologyDocument::open_sample() {
  set_inputs(std::make_shared<const TopologyInputs>(sample_inputs()));
  settings_ = TopologySettings{};
  run();
}

void TopologyDocument::open_traffic(const std::filesystem::path& path) {
  set_inputs(std::make_shared<const TopologyInputs>(inputs_from_file(path, inputs_.get())));
}

void TopologyDocument::open_traffic_async(const std::filesystem::path& path) {
  const std::uint64_t ticket = ++load_ticket_;
  worker_->submit("load", "Loading " + path.filename().string(),
                  [this, path, ticket, prev = inputs_](Worker::Context& ctx) {
                    try {
                      auto in = std::make_shared<const TopologyInputs>(inputs_from_file(path, prev.get()));
                      ctx.post([this, in, ticket, path] {
                        if (ticket != load_ticket_) return;  // a newer load was asked for
                        set_inputs(in);
                        notify(false, fmt::format("Loaded {}: {} nodes, {} timestamp(s), {} configuration(s)",
                                                  path.string(), in->traffic.node_count(),
                                                  in->traffic.timestamp_count(), in->configs.size()));
                      });
                    } catch (const Error& e) {
                      ctx.post([this, msg = e.full_message(), path] {
                        notify(true, "Open " + path.string() + ": " + msg);
                      });
                    }
                  });
}

void TopologyDocument::generate_traffic(const std::string& spec) {
  set_inputs(std::make_shared<const TopologyInputs>(inputs_from_generator(spec, inputs_.get())));
}

void TopologyDocument::add_topology(const std::string& spec_or_path) {
  if (!has_traffic())
    throw_usage("there is no traffic yet", "open or generate traffic first: topologies fit its nodes");
  TopologyInputs next = *inputs_;
  next.notes.clear();
  next.sources.push_back({spec_or_path, std::nullopt});
  build_configurations(next, false);
  set_inputs(std::make_shared<const TopologyInputs>(std::move(next)));
}

void TopologyDocument::remove_topology(int source_index) {
  if (!inputs_ || source_index < 0 || source_index >= int(inputs_->sources.size()))
    throw_usage(fmt::format("there is no topology {}", source_index));
  TopologyInputs next = *inputs_;
  next.notes.clear();
  next.sources.erase(next.sources.begin() + source_index);
  build_configurations(next, false);
  set_inputs(std::make_shared<const TopologyInputs>(std::move(next)));
}

void TopologyDocument::set_metric(const std::string& metric) {
  topo::metric_from_string(metric);  // a usage Error for anything but hops and weighted
  if (!inputs_) throw_usage("there is no traffic yet", "open or generate traffic first");
  if (inputs_->metric == metric) return;
  TopologyInputs next = *inputs_;
  next.notes.clear();
  next.metric = metric;
  build_configurations(next, false);  // e.g. links without lengths refuse "weighted": the metric stays
  set_inputs(std::make_shared<const TopologyInputs>(std::move(next)));
}

void TopologyDocument::check_settings() const {
  if (!has_traffic()) throw_usage("there is no traffic to sweep", "open a traffic dataset or generate one");
  if (inputs_->configs.empty())
    throw_usage("there is no topology configuration to sweep", "add one: a family such as ring, or a file");
  if (settings_.top_k < 0 || settings_.top_k > 1000)
    throw_usage(fmt::format("top {} placements is outside 0 .. 1000", settings_.top_k));
  if (settings_.backend == Backend::Cuda && !options_.use_cuda)
    throw Error(ErrorKind::Device, "the CUDA backend is switched off in this session", "use the CPU backend");
  if (settings_.placements == "search") return check_search_settings();
  if (settings_.placements == "bnb") return check_proof_settings();
  if (settings_.backend == Backend::Cuda) {
    const std::size_t devices = list_devices().size();
    for (int d : settings_.gpus)
      if (d < 0 || std::size_t(d) >= devices)
        throw_usage(fmt::format("there is no GPU {} (this machine has {})", d, devices), "pick the GPUs listed");
  }
  if (settings_.max_time_s < 0) throw_usage("the time limit must be 0 (none) or more");
  request_for(*inputs_, settings_);
}

// ---- sweeping ----

void TopologyDocument::run() {
  check_settings();
  if (settings_.placements == "search") return run_search();
  if (settings_.placements == "bnb") return run_proof();
  const topo::EvalRequest request = request_for(*inputs_, settings_);
  last_error_.clear();
  worker_->submit(
      "sweep", "Topology sweep", [this, in = inputs_, settings = settings_, request](Worker::Context& ctx) {
        cancel_ = false;
        auto run = std::make_shared<TopologyRun>();
        run->inputs = in;
        run->settings = settings;
        try {
          run->problem = std::make_unique<topo::Problem>(topo::make_problem(in->traffic, in->configs));
          topo::SweepSetup setup;
          setup.cpu_workers = {pool_.get()};
          setup.max_time_s = settings.max_time_s;
          setup.label = in->traffic.source;
          setup.note = [&ctx, this](const std::string& text) { ctx.post([this, text] { notify(false, text); }); };
          if (request.backend == Backend::Cuda) setup.gpu_workers = cuda_workers(settings);
          topo::EvalControl control;
          control.cancel = &cancel_;
          control.progress = [&](const topo::EvalProgress& p) {
            if (ctx.cancelled()) cancel_ = true;
            const double f =
                p.evaluations_total ? double(p.evaluations_done) / double(p.evaluations_total) : -1.0;
            ctx.set_progress(
                f, fmt::format("{}: {} of {} evaluations", p.pass, evaluation_count_text(p.evaluations_done),
                               evaluation_count_text(p.evaluations_total)));
          };
          const auto start = std::chrono::steady_clock::now();
          run->result = topo::evaluate(*run->problem, request, control, setup);
          run->wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          ctx.post([this, run] { apply_run(run); });
        } catch (const Error& e) {
          ctx.post([this, msg = e.full_message()] { notify(true, "Topology sweep: " + msg); });
        }
      });
}

std::vector<CudaContext*> TopologyDocument::cuda_workers(const TopologySettings& settings) {
  std::vector<int> devices = settings.gpus;
  if (devices.empty())
    for (const DeviceInfo& d : list_devices()) devices.push_back(d.index);
  if (devices.empty()) devices.push_back(0);  // CudaContext::create says why there is none
  if (devices != cuda_devices_ || cuda_.empty()) {
    cuda_.clear();
    cuda_devices_.clear();
    for (int d : devices) cuda_.push_back(CudaContext::create(d));
    cuda_devices_ = devices;
  }
  std::vector<CudaContext*> out;
  for (auto& c : cuda_) out.push_back(c.get());
  return out;
}

const SweepForecast* TopologyDocument::forecast() {
  if (!has_traffic() || inputs_->configs.empty() || settings_.placements == "search" ||
      settings_.placements == "bnb")
    return nullptr;
  const std::string key = fmt::format("{}|{}|{}|{}|{}", static_cast<const void*>(inputs_.get()), settings_.placements,
                                      to_string(settings_.backend), settings_.top_k, fmt::join(settings_.gpus, ","));
  if (key == forecast_key_) return &*forecast_;
  forecast_key_ = key;
  forecast_.emplace();
  try {
    const topo::EvalRequest request = request_for(*inputs_, settings_);
    const topo::Problem problem = topo::make_problem(inputs_->traffic, inputs_->configs);
    SweepForecast& f = *forecast_;
    f.placements = request.mode == topo::PlacementMode::All      ? std::tgamma((long double)problem.n + 1)
                   : request.mode == topo::PlacementMode::Sample ? (long double)request.samples
                                                                 : (long double)request.placements.size();
    f.slices = problem.slices;
    f.configurations = problem.configs;
    f.evaluations_per_pass = f.placements * (long double)problem.pairs();
    f.passes = topo::passes_text(request);
    f.evaluations = topo::evaluations_over_passes(problem, request, f.placements);
    f.provable = topo::provable_without_time_limit(problem);
    if (request.mode == topo::PlacementMode::All) measure_forecast(key);
  } catch (const Error& e) {
    *forecast_ = SweepForecast{};
    forecast_->error = e.full_message();
  }
  return &*forecast_;
}

void TopologyDocument::measure_forecast(const std::string& key) {
  worker_->submit("estimate", "Estimating the sweep's time",
                  [this, key, in = inputs_, settings = settings_](Worker::Context& ctx) {
                    try {
                      const topo::Problem problem = topo::make_problem(in->traffic, in->configs);
                      const topo::EvalRequest request = request_for(*in, settings);
                      CudaContext* cuda = nullptr;
                      if (settings.backend == Backend::Cuda) cuda = cuda_workers(settings).front();
                      const topo::SweepEstimate e = topo::estimate_exhaustive(problem, request, *pool_, cuda);
                      const std::string on = settings.backend == Backend::Cuda
                                                 ? cuda->device().name
                                                 : fmt::format("the CPU ({} threads)", pool_->size());
                      ctx.post([this, key, seconds = e.seconds, on] {
                        if (key != forecast_key_ || !forecast_) return;  // the inputs or settings changed since
                        forecast_->seconds = seconds;
                        forecast_->measured_on = on;
                      });
                    } catch (const Error& e) {
                      ctx.post([this, key, msg = e.full_message()] {
                        if (key == forecast_key_ && forecast_) forecast_->error = "estimating its time: " + msg;
                      });
                    }
                  });
}

void TopologyDocument::shut_down() {
  cancel_ = true;
  worker_->stop();
}

void TopologyDocument::cancel() {
  cancel_ = true;
  worker_->cancel_running();
}

bool TopologyDocument::poll() {
  auto posted = worker_->take_posted();
  for (auto& apply : posted) apply();
  return !posted.empty();
}

void TopologyDocument::wait_idle() {
  worker_->wait_idle();
  poll();
}

void TopologyDocument::apply_run(std::shared_ptr<TopologyRun> run) {
  const bool same_shape = run_ && run_->problem->slices == run->problem->slices &&
                          run_->problem->configs == run->problem->configs;
  run_ = std::move(run);
  if (run_->inputs == inputs_) changed_since_run_ = false;
  const topo::EvalResult& r = run_->result;
  if (run_->proof) {
    const topo::BnbProof all = run_->proof->overall();
    notify(false, fmt::format("Proof {}: {} nodes in {:.2f} s on {}",
                              all.optimal ? "done: the best placement is optimal" : "stopped (the best and the gap are kept)",
                              all.nodes, run_->wall_s, r.timing.device));
    selection_ = {run_->proof->slice, run_->proof->best().configuration, -1};
    selection_.top_rank = -1;
    return;
  }
  notify(false, fmt::format("{} {}: {} evaluations in {:.2f} s on {}", run_->search ? "Placement search" : "Topology sweep",
                            r.complete ? "done" : "cancelled (the best so far is kept)", evaluation_count_text(r.evaluations),
                            run_->wall_s, r.timing.device));
  if (run_->search) {  // the optimised slice on the configuration with the best placement
    selection_ = {run_->search->slice, run_->search->best().configuration, -1};
  } else if (!same_shape) {
    selection_ = Selection{};
    bool any = false;
    for (const auto& s : r.slices) any = any || s.count > 0;
    if (any) {
      const topo::BestPlacement best = topo::best_overall(r);
      selection_.slice = best.slice;
      selection_.configuration = best.configuration;
    }
  }
  selection_.top_rank = -1;
}

// ---- results ----

CostGrid TopologyDocument::cost_grid() const {
  CostGrid g;
  if (!run_) return g;
  const topo::EvalResult& r = run_->result;
  g.rows = run_->problem->timestamps;
  g.cols = run_->problem->configs;
  g.values.assign(std::size_t(g.rows) * std::size_t(g.cols), std::numeric_limits<double>::quiet_NaN());
  g.best_col.assign(std::size_t(g.rows), -1);
  bool first = true;
  for (int t = 0; t < g.rows; ++t)
    for (int c = 0; c < g.cols; ++c) {
      const topo::SliceResult& s = r.at(t, c);
      if (s.count == 0) continue;
      const double v = s.min.value;
      g.values[std::size_t(t) * std::size_t(g.cols) + std::size_t(c)] = v;
      g.lo = first ? v : std::min(g.lo, v);
      g.hi = first ? v : std::max(g.hi, v);
      first = false;
      const int b = g.best_col[std::size_t(t)];
      if (b < 0 || v < g.at(t, b)) g.best_col[std::size_t(t)] = c;
    }
  return g;
}

void TopologyDocument::select(int slice, int configuration) {
  if (!run_) throw_usage("there is no result to select in yet", "run a sweep first");
  if (slice < 0 || slice >= run_->problem->slices || configuration < 0 ||
      configuration >= run_->problem->configs)
    throw_usage(fmt::format("there is no result for timestamp {} and configuration {} ({} x {})", slice,
                            configuration, run_->problem->slices, run_->problem->configs));
  selection_ = {slice, configuration, -1};
}

void TopologyDocument::select_top(int rank) {
  if (!run_) throw_usage("there is no result to select in yet", "run a sweep first");
  if (rank < 0) {
    selection_.top_rank = -1;
    return;
  }
  const auto& top = run_->result.top;
  if (rank >= int(top.size()))
    throw_usage(fmt::format("there is no top placement {} (the result lists {})", rank + 1, top.size()));
  selection_ = {run_->result.top_slice, top[std::size_t(rank)].configuration, rank};
}

const topo::SliceResult* TopologyDocument::selected_slice() const {
  if (!run_) return nullptr;
  return &run_->result.at(selection_.slice, selection_.configuration);
}

std::vector<int> TopologyDocument::selected_placement() const {
  if (!run_) return {};
  if (selection_.top_rank >= 0) return run_->result.top[std::size_t(selection_.top_rank)].placement;
  const topo::SliceResult* s = selected_slice();
  return s && s->count ? s->placement : std::vector<int>{};
}

std::optional<topo::Cost> TopologyDocument::selected_cost() const {
  if (!run_) return std::nullopt;
  if (selection_.top_rank >= 0) return run_->result.top[std::size_t(selection_.top_rank)].cost;
  const topo::SliceResult* s = selected_slice();
  return s && s->count ? std::optional(s->min) : std::nullopt;
}

std::optional<LoadedNetwork> TopologyDocument::selected_network() const {
  const std::vector<int> placement = selected_placement();
  if (placement.empty()) return std::nullopt;
  const TopologyInputs& in = *run_->inputs;
  return load_network(in.traffic, selection_.slice, in.configs[std::size_t(selection_.configuration)],
                      placement);
}

}  // namespace ks::app
