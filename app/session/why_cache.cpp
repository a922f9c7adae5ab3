#include "session/why_cache.hpp"

#include <fmt/format.h>

#include "core/device_models.hpp"
#include "report/why_explain.hpp"
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"
#include "session/simulation/simulation_runner.hpp"

namespace ks::app {

namespace {

enum Family { kStencil = 0, kLab = 1, kSimulation = 2 };

int family_of(const Session& s) { return s.simulating() ? kSimulation : s.in_lab() ? kLab : kStencil; }

// The simulation's report with the step times the Timing section shows (the report itself was made when the
// simulation started; its steps go on).
std::optional<WhyExplanation> explain_simulation(const SimulationRunner& sim, const DeviceInfo* device) {
  if (!sim.report()) return std::nullopt;
  const TimingStats& steps = sim.timing().stats;
  if (steps.count == 0) return std::nullopt;
  SimulationReport r = *sim.report();
  r.step_time = steps;
  r.roofline = roofline_figures(r.roofline.mix, r.bytes_per_step, steps.median_ms, r.roofline.peaks);
  return WhyExplanation{report::explain_why(r, device), r.counters.has_value(), {}, {}};
}

std::optional<WhyExplanation> explain_run(const Session& s) {
  const DeviceInfo* device = s.device().cuda ? &s.device().info : nullptr;
  if (s.simulating()) return explain_simulation(s.simulation(), device);
  if (s.in_lab()) {
    const auto& run = s.lab().last_run();
    if (!run) return std::nullopt;
    return WhyExplanation{report::explain_why(run->report, device), run->report.counters.has_value(), {}, {}};
  }
  const auto& r = s.last_report();
  if (!r) return std::nullopt;
  return WhyExplanation{report::explain_why(*r, device), r->counters.has_value(), {}, {}};
}

// On the CPU backend with a device model (the Launch section's), the picture of the CUDA variant it models.
std::optional<LaunchPicture> modelled_picture(const Session& s) {
  if (s.device_model().empty() || s.device().cuda) return std::nullopt;
  LaunchPicture p = s.launch_picture();
  if (!p.model || !p.geometry) return std::nullopt;
  return p;
}

// The launch pitfalls of that variant: what the occupancy arithmetic and the grid can tell without a GPU.
void explain_modelled(const Session& s, const LaunchPicture& p, WhyExplanation& out) {
  const DeviceInfo& model = device_model(s.device_model()).limits;
  report::WhyInput in;
  in.family = s.simulating() ? "simulation" : "stencil";
  in.kernel = s.kernel().id;
  in.variant = p.variant;
  in.backend = Backend::Cuda;
  in.block = p.geometry->block;
  in.occupancy = p.occupancy;
  in.device = model;
  if (p.occupancy)
    in.fill = report::WhyLaunchFill{p.geometry->blocks(), model.sm_count, p.occupancy->active_blocks_per_sm};
  out.modelled = report::explain_why(in);
  out.modelled_heading = fmt::format("The {} variant's launch on {}, modelled (no GPU here):", p.variant, p.device_name);
}

}  // namespace

WhyCache::Key WhyCache::key_of(const Session& s, const std::optional<LaunchPicture>& picture) {
  Key k;
  k.family = family_of(s);
  k.cuda = s.device().cuda;
  switch (k.family) {
    case kSimulation:
      k.has_run = s.simulation().report().has_value();
      k.run = s.simulation().revision();
      break;
    case kLab:
      k.has_run = s.lab().last_run().has_value();
      k.run = k.has_run ? s.lab().last_run()->number : 0;
      break;
    default:
      k.has_run = s.last_report().has_value();
      k.run = s.runs_applied();
  }
  if (picture) {
    k.model_variant = picture->variant;
    k.model_device = picture->device_name;
    k.model_block = picture->geometry->block;
    k.model_blocks = picture->geometry->blocks();
    if (picture->occupancy) {
      k.model_resident = picture->occupancy->active_blocks_per_sm;
      k.model_occupancy = picture->occupancy->occupancy;
    }
  }
  return k;
}

const WhyExplanation* WhyCache::current(const Session& s) {
  const std::optional<LaunchPicture> picture = modelled_picture(s);
  Key key = key_of(s, picture);
  if (key_ != key) {
    key_ = std::move(key);
    ++recomputations_;
    value_ = explain_run(s);
    if (value_ && picture) explain_modelled(s, *picture, *value_);
  }
  return value_ ? &*value_ : nullptr;
}

}  // namespace ks::app
