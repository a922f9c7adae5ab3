// The Topology document's placement search (settings().placements == "search"): topo::search runs on the
// document's worker over the inputs' snapshot. While it runs, its progress reaches the document as SearchLive
// (the best placement so far and the convergence curve of the configuration being searched), posted on every
// improvement and at most ten times a second otherwise; when it ends (or is cancelled, keeping the best so
// far), a TopologyRun whose result is the search in the sweep's form, so that the heatmap, the network and
// the exports show it like a sweep.
#include <fmt/format.h>

#include <chrono>

#include "report/topo_search_report.hpp"
#include "core/cuda_context.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "session/topology/topology_document.hpp"
#include "topo/inputs/numbers.hpp"

namespace ks::app {

namespace {

topo::SearchRequest search_request(const TopologySettings& s) {
  topo::SearchRequest r;
  r.params = topo::search_params_from(s.search.params);
  r.backend = s.backend;
  r.seed = s.seed;
  r.time_s = s.search.time_s;
  r.iterations = s.search.iterations;
  r.target = s.search.target;
  return r;
}

std::string cost_text(const topo::Problem& p, const topo::Cost& c) {
  return p.exact ? topo::format_scaled(c.scaled, p.decimals) : fmt::format("{:.10g}", c.value);
}

}  // namespace

void TopologyDocument::check_search_settings() const {
  const TopologySearchSettings& s = settings_.search;
  if (!(s.time_s >= 0))
    throw_usage(fmt::format("search time {} s is not a duration", s.time_s), "give a time in seconds > 0");
  if (s.time_s == 0 && s.iterations == 0)
    throw_usage("the search has no stop: neither a time nor a number of iterations",
                "give a time in seconds, or iterations per chain");
  topo::search_params_from(s.params);
}

void TopologyDocument::run_search() {
  const topo::SearchRequest request = search_request(settings_);
  last_error_.clear();
  live_ = SearchLive{};
  live_.running = true;
  live_inputs_ = inputs_;
  if (!inputs_->qaplib_file.empty()) {  // a small file, read once here
    try {
      if (const auto ref = report::search_reference("", inputs_->qaplib_file, inputs_->traffic.node_count())) {
        live_.reference = ref->cost;
        live_.reference_source = ref->source;
      }
    } catch (const Error& e) {
      notify(true, "Best known cost: " + e.full_message());
    }
  }
  worker_->submit(
      "search", "Placement search",
      [this, in = inputs_, settings = settings_, request, reference = live_.reference,
       reference_source = live_.reference_source](Worker::Context& ctx) {
        cancel_ = false;
        auto run = std::make_shared<TopologyRun>();
        run->inputs = in;
        run->settings = settings;
        run->reference = reference;
        run->reference_source = reference_source;
        try {
          run->problem = std::make_unique<topo::Problem>(topo::make_problem(in->traffic, in->configs));
          const topo::Problem& problem = *run->problem;
          CudaContext* cuda = nullptr;
          if (request.backend == Backend::Cuda) {
            // The search runs on one GPU: the first of the sweep's contexts, or the first chosen device.
            if (cuda_.empty()) {
              const int device = settings.gpus.empty() ? 0 : settings.gpus.front();
              cuda_.push_back(CudaContext::create(device));
              cuda_devices_ = {device};
            }
            cuda = cuda_.front().get();
          }
          topo::SearchControl control;
          control.cancel = &cancel_;
          Stopwatch since_post;
          control.progress = [&](const topo::SearchProgress& p) {
            if (ctx.cancelled()) cancel_ = true;
            ctx.set_progress(p.fraction, fmt::format("configuration {} of {}: best {}", p.configuration + 1,
                                                     p.configurations, cost_text(problem, p.best)));
            if (!p.improved && since_post.elapsed_ms() < 100) return;
            since_post.restart();
            SearchLive live;
            live.running = true;
            live.configuration = p.configuration;
            live.configurations = p.configurations;
            live.elapsed_s = p.elapsed_s;
            live.fraction = p.fraction;
            live.iterations = p.iterations;
            live.best = p.best;
            live.placement = *p.placement;
            live.curve = *p.curve;
            live.reference = reference;
            live.reference_source = reference_source;
            ctx.post([this, live = std::move(live)] { live_ = live; });
          };
          const auto start = std::chrono::steady_clock::now();
          auto result = std::make_shared<const topo::SearchResult>(
              topo::search(problem, request, control, *pool_, cuda));
          run->wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          run->result = topo::as_eval_result(*result);
          run->search = result;
          ctx.post([this, run] {
            // The finished search's best configuration, as the live view shows it from now on.
            const topo::ConfigurationSearch& best = run->search->best();
            live_.running = false;
            live_.configuration = best.configuration;
            live_.configurations = int(run->search->configurations.size());
            live_.elapsed_s = best.seconds;
            live_.fraction = 1;
            live_.iterations = best.iterations;
            live_.best = best.best;
            live_.placement = best.placement;
            live_.curve = best.curve;
            live_inputs_ = run->inputs;
            apply_run(run);
          });
        } catch (const Error& e) {
          ctx.post([this, msg = e.full_message()] {
            live_.running = false;
            notify(true, "Placement search: " + msg);
          });
        }
      });
}

std::optional<LoadedNetwork> TopologyDocument::live_network() const {
  if (!live_inputs_ || live_.placement.empty()) return std::nullopt;
  const TopologyInputs& in = *live_inputs_;
  if (live_.configuration >= int(in.configs.size())) return std::nullopt;
  const int slice = in.traffic.timestamp_count() > 1 ? in.traffic.timestamp_count() : 0;  // the optimised one
  return load_network(in.traffic, slice, in.configs[std::size_t(live_.configuration)], live_.placement);
}

}  // namespace ks::app
