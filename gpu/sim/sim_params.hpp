#pragma once
// The parameters of the three simulations as the backends use them, read from a checked ParamSet. The ParamSet
// has checked each value against its range; these add the checks that involve several values (the time step
// against the stability limit of the explicit scheme, a preset against F and k set by hand) and throw usage
// Errors that say the limit.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "registry/params.hpp"
#include "sim/life_rule.hpp"
#include "sim/sim_math.hpp"

namespace ks::sim {

enum class SimKind { Life, Heat, GrayScott };
SimKind sim_kind_of(const std::string& kernel_id);  // Internal error for ids that are not simulations

// Random fills and hot spots: how many, how large, from which seed.
struct Spots {
  int count = 0;
  int radius = 0;
  std::uint32_t seed = 0;
};

struct LifeParams {
  LifeRule rule;
  bool torus = true;   // false: cells outside the grid are dead
  double density = 0;  // random fill: probability of a live cell
  std::uint32_t seed = 0;
  int steps_per_pass = 8;  // the multistep variant's generations per pass (temporal blocking); others: unused
};

struct HeatParams {
  double diffusivity = 0;
  double dt = 0;
  FieldBoundary boundary = FieldBoundary::Insulated;
  double boundary_value = 0;  // Fixed
  Spots spots;
  double spot_value = 0;      // temperature of the hot spots; the background is 0
  int steps_per_pass = 4;     // the temporal variant's k (1, 2, 4 or 8); the other variants run one per pass
  HeatCoefficients coefficients() const { return {float(diffusivity * dt)}; }
};

struct GrayScottParams {
  double feed = 0, kill = 0, du = 0, dv = 0, dt = 0;
  std::string preset;  // "custom" or the preset that gave feed and kill
  FieldBoundary boundary = FieldBoundary::Periodic;
  Spots spots;
  int steps_per_pass = 4;  // as HeatParams
  GrayScottCoefficients coefficients() const {
    return {float(du), float(dv), float(feed), float(feed + kill), float(dt)};
  }
};

// The largest stable time steps of the explicit 5-point scheme with unit grid spacing: D * dt <= 1/4.
double heat_dt_limit(double diffusivity);
double grayscott_dt_limit(double du, double dv);

// Parameters that only shape the initial state (random fill, hot spots, seed squares): density, seed, spots,
// spot_radius, spot_value. A running state cannot take a new value of them; the rest (rule, border,
// coefficients, boundary, preset) apply to the next step (Simulation::set_params).
bool is_initial_state_param(const std::string& name);

LifeParams life_params(const ParamSet& params);
HeatParams heat_params(const ParamSet& params);          // usage Error when dt exceeds the stability limit
GrayScottParams grayscott_params(const ParamSet& params);  // the same; and for a preset with F or k set too
// The checks above for the simulation of `kind` alone (what a front end refuses before it starts anything).
void check_params(SimKind kind, const ParamSet& params);

// Gray-Scott presets: name -> (F, k). Classic regimes of Pearson's map ("Complex patterns in a simple system",
// Science 1993), with the names they are usually shown under.
struct GrayScottPreset {
  std::string name;
  double feed, kill;
  std::string looks_like;
};
const std::vector<GrayScottPreset>& grayscott_presets();

}  // namespace ks::sim
