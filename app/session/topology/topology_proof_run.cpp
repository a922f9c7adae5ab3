// The Topology document's proof (settings().placements == "bnb"): topo::prove runs on the document's worker
// over the inputs' snapshot, on the CPU pool (and, with the CUDA backend, node batches on the first GPU, fed by
// several of the pool's threads).
// While it runs, its progress reaches the document as ProofLive
// (nodes, open subtrees, the bound, the best found and the gap curve of the configuration being proved), at
// most ten times a second; when it ends (or is cancelled, keeping the best and the gap), a TopologyRun whose
// result is the proof in the sweep's form, so that the heatmap, the network and the exports show it.
#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "session/topology/topology_document.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/gpu_feeders.hpp"

namespace ks::app {

void TopologyDocument::check_proof_settings() const {
  const TopologyProofSettings& s = settings_.proof;
  if (!(s.time_s >= 0) || std::isinf(s.time_s))
    throw_usage(fmt::format("proof time {} s is not a duration", s.time_s), "give seconds > 0, or 0 for no limit");
}

void TopologyDocument::run_proof() {
  topo::BnbRequest request;
  request.time_s = settings_.proof.time_s;
  request.label = inputs_->traffic.source;
  last_error_.clear();
  proof_live_ = ProofLive{};
  proof_live_.running = true;
  live_inputs_ = inputs_;
  worker_->submit("proof", "Proof (branch and bound)", [this, in = inputs_, settings = settings_,
                                                         request](Worker::Context& ctx) {
    cancel_ = false;
    auto run = std::make_shared<TopologyRun>();
    run->inputs = in;
    run->settings = settings;
    try {
      run->problem = std::make_unique<topo::Problem>(topo::make_problem(in->traffic, in->configs));
      // The CUDA backend: pool threads feed the first GPU batches of nodes (as many as the CLI's default, each
      // on a context, so a stream, of its own), the others dive.
      topo::BnbRequest with_gpu = request;
      std::unique_ptr<topo::GpuFeeders> feeders;
      if (settings.backend == Backend::Cuda) {
        feeders = std::make_unique<topo::GpuFeeders>(*cuda_workers(settings).front(),
                                                     topo::default_feeders_per_gpu(pool_->size(), 1));
        with_gpu.evaluators = feeders->evaluators();
      }
      topo::BnbControl control;
      control.cancel = &cancel_;
      control.progress = [&](const topo::BnbProgress& p) {
        if (ctx.cancelled()) cancel_ = true;
        ctx.set_progress(p.fraction, fmt::format("configuration {} of {}: bound {:.10g}, best {:.10g}",
                                                 p.configuration + 1, p.configurations, p.bound.value,
                                                 p.incumbent.value));
        ProofLive live;
        live.running = true;
        live.configuration = p.configuration;
        live.configurations = p.configurations;
        live.elapsed_s = p.elapsed_s;
        live.fraction = p.fraction;
        live.nodes = p.nodes;
        live.open = p.open;
        live.subtrees = p.subtrees;
        live.bound = p.bound;
        live.incumbent = p.incumbent;
        live.curve = *p.curve;
        ctx.post([this, live = std::move(live)] { proof_live_ = live; });
      };
      const auto start = std::chrono::steady_clock::now();
      auto result = std::make_shared<const topo::BnbResult>(topo::prove(*run->problem, with_gpu, control, *pool_));
      run->wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      run->result = topo::as_eval_result(*result);
      run->proof = result;
      ctx.post([this, run] {
        // The finished proof's best configuration, as the live view shows it from now on.
        const topo::ConfigurationProof& best = run->proof->best();
        proof_live_.running = false;
        proof_live_.configuration = best.configuration;
        proof_live_.configurations = int(run->proof->configurations.size());
        proof_live_.elapsed_s = best.proof.seconds;
        proof_live_.fraction = best.proof.optimal ? 1 : proof_live_.fraction;
        proof_live_.nodes = best.proof.nodes;
        proof_live_.bound = best.proof.best_bound;
        proof_live_.incumbent = best.best;
        proof_live_.curve = best.curve;
        live_inputs_ = run->inputs;
        apply_run(run);
      });
    } catch (const Error& e) {
      ctx.post([this, msg = e.full_message()] {
        proof_live_.running = false;
        notify(true, "Proof: " + msg);
      });
    }
  });
}

}  // namespace ks::app
