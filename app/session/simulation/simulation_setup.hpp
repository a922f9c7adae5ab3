#pragma once
// What the app asks of a live simulation (kernel, parameters, backend, variant, block, where the state starts),
// and how a change of it is carried out: most changes keep the state the user is watching and apply to the next
// step (parameters through Simulation::set_params, on the running simulation itself); those that define the
// state itself start it anew. Qt-free, no threads: app/session/simulation_runner.*
// runs what this decides.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"
#include "sim/rle.hpp"
#include "sim/simulation.hpp"
#include "session/simulation/user_step_choice.hpp"

namespace ks::app {

// Where a simulation starts (and returns to on Reset).
enum class SimStart {
  Parameters,  // life: random fill (density, seed); heat: hot spots; grayscott: seed squares
  Image,       // the loaded image: heat u = luminance, grayscott v = luminance / 4, life alive where >= 0.5
  Pattern,     // life: an RLE pattern (built in or from a file) at the centre of an empty grid
};

struct SimulationSetup {
  std::string kernel;  // "life", "heat", "grayscott"
  ParamSet params;
  Backend backend = Backend::Cpu;
  std::string variant;  // empty: Simulation::default_variant
  std::optional<BlockShape> block;
  SimStart start = SimStart::Parameters;
  std::shared_ptr<const Image> image;        // the loaded image (used with SimStart::Image); a new one per load
  std::shared_ptr<const sim::LifePattern> pattern;  // with SimStart::Pattern
  int width = kDefaultSimSize, height = kDefaultSimSize;  // the grid without an image
  // A user's `step` kernel stepping in place of the built-in's variants (issue 24); null: the built-in. A new
  // kernel (an edit compiled) or new values of its parameters come as a new object.
  std::shared_ptr<const UserStepChoice> user;
};

// How to get from the simulation that runs under `current` to one under `next`.
enum class SimChange {
  None,        // nothing the simulation depends on changed
  Params,      // only rule, border, coefficients, boundary or preset: the running simulation takes them
               // (Simulation::set_params), keeping its whole state (Gray-Scott's u and v) and its generation
  KeepState,   // backend, variant or block (and perhaps parameters as above), or the user's step kernel (another
               // kernel, new values of its parameters, or back to the built-in): a new simulation from the current
               // state, which it takes as an image (Gray-Scott: v, and u restarted as 1 - 2 v)
  FreshStart,  // kernel, start, grid, image, or a parameter of the initial state (sim::is_initial_state_param)
};
SimChange classify_change(const SimulationSetup& current, const SimulationSetup& next);

// The checks a simulation's constructor makes on its parameters alone (the stability limit of dt, a preset with
// F or k set by hand), so the panels can refuse a value at once, as they do for stencils. A usage Error.
void check_simulation_params(const std::string& kernel, const ParamSet& params);

// The request and start of a simulation made afresh from `setup`. A pattern larger than the grid asked for gets
// a grid with room around it.
SimulationRequest request_of(const SimulationSetup& setup);
SimulationStart start_of(const SimulationSetup& setup);

// "random fill (density 0.3, seed 1)", "the loaded image (640x480)", "pattern glider (3x3)", ...
std::string describe_start(const SimulationSetup& setup);

}  // namespace ks::app
