#pragma once
// A user's `step` kernel beside the built-in simulation it stands in for (issue 24): which simulation keeps a state
// of the kernel's element type, the state in the kernel's form (one value per cell: u8 cells 0 dead / 1 alive, f32
// temperatures) and in the simulation's (Life's cells are 0 / 255), and the built-in's own steps from a state of
// the kernel's form. The app's check (app/session/simulation/user_step_backend.*) and `sim --kernel-file --compare`
// run the reference through here, so both compare the same things.
#include <string>

#include "core/image.hpp"
#include "core/runtime.hpp"
#include "sim/sim_backend.hpp"
#include "sim/simulation.hpp"

namespace ks::inputs {

// The simulation a step kernel of `type` stands in for: "life" for u8 cells, "heat" for f32 temperatures. (Gray-Scott
// keeps two values per cell, u and v, and a step kernel carries one: no step kernel fits it.)
std::string simulation_for_step(ElemType type);

// A Usage Error unless the built-in simulation `kernel` keeps one value per cell of `type`, naming the one that
// does: grayscott never (two fields), life only u8, heat only f32; a kernel that is not a simulation neither.
void check_step_reference(const std::string& kernel, ElemType type);

// The state as a step kernel takes it, from a simulation's fields: Life 0/255 -> 0/1, heat u as it is.
Image step_state_of(const sim::Fields& fields, sim::SimKind kind);
// And back: Life alive where the kernel's cell is not 0 (as the template reads it), heat u as it is.
sim::Fields fields_of_step_state(const Image& state, sim::SimKind kind);

// `steps` steps of the built-in simulation `request` (kernel, parameters, backend, variant; its size is the
// state's) from `state` in the kernel's form, returned in the kernel's form. Usage Error for a simulation that
// does not fit the state's type (check_step_reference).
Image builtin_steps(Runtime& runtime, SimulationRequest request, const Image& state, long long steps);

}  // namespace ks::inputs
