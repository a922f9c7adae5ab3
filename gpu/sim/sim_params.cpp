#include "sim/sim_params.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks::sim {

namespace {

FieldBoundary boundary_from(const std::string& s) {
  if (s == "fixed") return FieldBoundary::Fixed;
  if (s == "periodic") return FieldBoundary::Periodic;
  return FieldBoundary::Insulated;  // the ParamSet admits only the three choices
}

Spots spots_from(const ParamSet& p) {
  return {int(p.get_int("spots")), int(p.get_int("spot_radius")), std::uint32_t(p.get_int("seed"))};
}

// The ParamSet admits only the registry's choices (1, 2, 4, 8).
int steps_per_pass_from(const ParamSet& p) { return std::stoi(p.get_choice("steps_per_pass")); }

}  // namespace

SimKind sim_kind_of(const std::string& id) {
  if (id == "life") return SimKind::Life;
  if (id == "heat") return SimKind::Heat;
  if (id == "grayscott") return SimKind::GrayScott;
  throw Error(ErrorKind::Internal, "'" + id + "' is not a simulation kernel");
}

bool is_initial_state_param(const std::string& name) {
  return name == "density" || name == "seed" || name == "spots" || name == "spot_radius" || name == "spot_value";
}

double heat_dt_limit(double diffusivity) { return 0.25 / diffusivity; }
double grayscott_dt_limit(double du, double dv) { return 0.25 / std::max(du, dv); }

const std::vector<GrayScottPreset>& grayscott_presets() {
  static const std::vector<GrayScottPreset> presets = {
      {"mitosis", 0.0367, 0.0649, "spots that grow and divide"},
      {"coral", 0.0545, 0.062, "branching coral growth"},
      {"spots", 0.035, 0.065, "stable spots"},
      {"moving-spots", 0.014, 0.054, "spots that wander"},
      {"worms", 0.078, 0.061, "worm-like stripes"},
      {"maze", 0.029, 0.057, "a labyrinth of stripes"},
      {"solitons", 0.03, 0.062, "isolated pulses"},
      {"waves", 0.014, 0.045, "travelling waves"},
      {"chaos", 0.026, 0.051, "turbulent, never settles"},
      {"uskate", 0.062, 0.06093, "the U-skate world: gliding structures"},
  };
  return presets;
}

LifeParams life_params(const ParamSet& p) {
  LifeParams l;
  l.rule = parse_life_rule(p.get_text("rule"));
  l.torus = p.get_choice("border") == "torus";
  l.density = p.get_float("density");
  l.seed = std::uint32_t(p.get_int("seed"));
  l.steps_per_pass = std::stoi(p.get_choice("steps_per_pass"));  // the choices are the kernel's instances
  return l;
}

HeatParams heat_params(const ParamSet& p) {
  HeatParams h;
  h.diffusivity = p.get_float("diffusivity");
  h.dt = p.get_float("dt");
  const double limit = heat_dt_limit(h.diffusivity);
  if (h.dt > limit)
    throw_usage(fmt::format("heat: dt={} is above the stability limit dt <= {:.6g} for diffusivity={} (the explicit "
                            "5-point scheme needs diffusivity * dt <= 1/4)",
                            h.dt, limit, h.diffusivity),
                fmt::format("use --param dt={:.6g} or less, or a smaller diffusivity", limit));
  h.boundary = boundary_from(p.get_choice("boundary"));
  h.boundary_value = p.get_float("boundary_value");
  h.spots = spots_from(p);
  h.spot_value = p.get_float("spot_value");
  h.steps_per_pass = steps_per_pass_from(p);
  return h;
}

GrayScottParams grayscott_params(const ParamSet& p) {
  GrayScottParams g;
  g.preset = p.get_choice("preset");
  g.feed = p.get_float("F");
  g.kill = p.get_float("k");
  if (g.preset != "custom") {
    if (p.was_set("F") || p.was_set("k"))
      throw_usage(fmt::format("grayscott: preset={} sets F and k, so F and k cannot be set as well", g.preset),
                  "drop --param F/k, or use preset=custom with your own F and k");
    for (const auto& pr : grayscott_presets())
      if (pr.name == g.preset) g.feed = pr.feed, g.kill = pr.kill;
  }
  g.du = p.get_float("Du");
  g.dv = p.get_float("Dv");
  g.dt = p.get_float("dt");
  const double limit = grayscott_dt_limit(g.du, g.dv);
  if (g.dt > limit)
    throw_usage(fmt::format("grayscott: dt={} is above the stability limit dt <= {:.6g} for Du={}, Dv={} (the "
                            "explicit 5-point scheme needs max(Du, Dv) * dt <= 1/4)",
                            g.dt, limit, g.du, g.dv),
                fmt::format("use --param dt={:.6g} or less", limit));
  g.boundary = boundary_from(p.get_choice("boundary"));
  g.spots = spots_from(p);
  g.steps_per_pass = steps_per_pass_from(p);
  return g;
}

void check_params(SimKind kind, const ParamSet& params) {
  switch (kind) {
    case SimKind::Life: life_params(params); break;
    case SimKind::Heat: heat_params(params); break;
    case SimKind::GrayScott: grayscott_params(params); break;
  }
}

}  // namespace ks::sim
