#include "session/simulation/simulation_setup.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "sim/sim_params.hpp"

namespace ks::app {

namespace {

// Room left around a pattern placed on a grid made for it, so that it can move or grow a while before it meets
// the border.
constexpr int kPatternMargin = 64;

std::string param_text(const ParamSet& p, const std::string& name) {
  for (const auto& [n, v] : p.as_text())
    if (n == name) return v;
  return {};
}

}  // namespace

SimChange classify_change(const SimulationSetup& a, const SimulationSetup& b) {
  if (a.kernel != b.kernel || a.start != b.start || a.width != b.width || a.height != b.height)
    return SimChange::FreshStart;
  if (b.start == SimStart::Image && a.image != b.image) return SimChange::FreshStart;
  if (b.start == SimStart::Pattern && a.pattern != b.pattern) return SimChange::FreshStart;
  SimChange change = SimChange::None;
  const auto pa = a.params.as_text(), pb = b.params.as_text();
  for (const auto& [name, value] : pb) {
    if (param_text(a.params, name) == value) continue;
    if (sim::is_initial_state_param(name)) return SimChange::FreshStart;
    change = SimChange::Params;
  }
  if (pa.size() != pb.size()) return SimChange::FreshStart;
  if (a.backend != b.backend || a.variant != b.variant || a.block != b.block || a.user != b.user)
    change = SimChange::KeepState;
  return change;
}

void check_simulation_params(const std::string& kernel, const ParamSet& params) {
  sim::check_params(sim::sim_kind_of(kernel), params);
}

SimulationRequest request_of(const SimulationSetup& s) {
  SimulationRequest r;
  r.kernel = s.kernel;
  r.params = s.params;
  r.backend = s.backend;
  r.variant = s.variant;
  if (s.backend == Backend::Cuda) r.block = s.block;
  if (s.start != SimStart::Image) {
    r.width = s.width;
    r.height = s.height;
    // A pattern larger than the grid asked for gets a grid that holds it (describe_start says so).
    if (s.start == SimStart::Pattern && s.pattern && (s.pattern->width > r.width || s.pattern->height > r.height)) {
      r.width = std::max(r.width, s.pattern->width + kPatternMargin);
      r.height = std::max(r.height, s.pattern->height + kPatternMargin);
    }
  }
  return r;
}

SimulationStart start_of(const SimulationSetup& s) {
  SimulationStart start;
  if (s.start == SimStart::Image) {
    if (!s.image) throw_usage("no image is loaded to start the simulation from", "open an image, or start from the parameters");
    start.image = *s.image;
  } else if (s.start == SimStart::Pattern) {
    if (!s.pattern) throw_usage("no Life pattern is chosen", "pick a built-in pattern or open an RLE file");
    start.pattern = *s.pattern;
  }
  return start;
}

std::string describe_start(const SimulationSetup& s) {
  switch (s.start) {
    case SimStart::Image:
      return s.image ? fmt::format("the loaded image ({}x{})", s.image->width(), s.image->height())
                     : std::string("the loaded image (none loaded)");
    case SimStart::Pattern: {
      if (!s.pattern) return "a pattern (none chosen)";
      std::string text = fmt::format("pattern {} ({}x{}, {} cells)", s.pattern->name, s.pattern->width,
                                     s.pattern->height, s.pattern->population());
      const SimulationRequest r = request_of(s);
      if (r.width != s.width || r.height != s.height)
        text += fmt::format(" on a {}x{} grid, enlarged to hold it", r.width, r.height);
      return text;
    }
    case SimStart::Parameters: break;
  }
  if (s.kernel == "life")
    return fmt::format("random fill (density {}, seed {})", param_text(s.params, "density"),
                       param_text(s.params, "seed"));
  return fmt::format("{} {} (seed {})", param_text(s.params, "spots"),
                     s.kernel == "heat" ? "hot spots" : "seed squares", param_text(s.params, "seed"));
}

}  // namespace ks::app
