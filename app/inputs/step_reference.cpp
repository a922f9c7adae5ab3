#include "inputs/step_reference.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "registry/registry.hpp"
#include "sim/sim_math.hpp"

namespace ks::inputs {

std::string simulation_for_step(ElemType type) {
  if (type == ElemType::U8) return "life";
  if (type == ElemType::F32) return "heat";
  throw_usage(fmt::format("a step kernel keeps u8 or f32 cells, not {}", to_string(type)));
}

void check_step_reference(const std::string& kernel, ElemType type) {
  const KernelSpec& spec = KernelRegistry::builtin().get(kernel);
  const std::string fits = simulation_for_step(type);
  if (spec.category != "simulation")
    throw_usage(fmt::format("{} is a {} kernel; a step kernel is checked against a simulation", spec.id,
                            spec.category),
                fmt::format("your kernel keeps {} cells: check it against {}", to_string(type), fits));
  if (spec.id == "grayscott")
    throw_usage("grayscott keeps two values per cell (u and v), and a step kernel carries one",
                fmt::format("your kernel keeps {} cells: check it against {}", to_string(type), fits));
  if (spec.id != fits)
    throw_usage(fmt::format("{} keeps {} cells, and your kernel keeps {} cells", spec.id,
                            spec.id == "life" ? "u8 (0 dead, 1 alive)" : "f32", to_string(type)),
                fmt::format("check it against {}", fits));
}

Image step_state_of(const sim::Fields& fields, sim::SimKind kind) {
  if (fields.size() != 1 || kind == sim::SimKind::GrayScott)
    throw Error(ErrorKind::Internal, "step_state_of: a step kernel's state is one field");
  if (kind == sim::SimKind::Heat) return fields[0];
  Image state(fields[0].shape());
  const auto cells = fields[0].elements<std::uint8_t>();
  std::transform(cells.begin(), cells.end(), state.elements<std::uint8_t>().begin(),
                 [](std::uint8_t c) { return static_cast<std::uint8_t>(c != 0 ? 1 : 0); });
  return state;
}

sim::Fields fields_of_step_state(const Image& state, sim::SimKind kind) {
  if (kind == sim::SimKind::GrayScott) throw Error(ErrorKind::Internal, "fields_of_step_state: grayscott");
  if (kind == sim::SimKind::Heat) return {state};
  Image cells(state.shape());
  const auto values = state.elements<std::uint8_t>();
  std::transform(values.begin(), values.end(), cells.elements<std::uint8_t>().begin(),
                 [](std::uint8_t c) { return static_cast<std::uint8_t>(c != 0 ? sim::kAlive : 0); });
  return {std::move(cells)};
}

Image builtin_steps(Runtime& runtime, SimulationRequest request, const Image& state, long long steps) {
  check_step_reference(request.kernel, state.type());
  if (state.channels() != 1)
    throw Error(ErrorKind::Internal, "builtin_steps: a step kernel's state has one channel");
  const sim::SimKind kind = sim::sim_kind_of(request.kernel);
  request.width = request.height = 0;  // the state's size
  request.own_backend = nullptr;
  // A simulation starts from an image: Life's cells 0/255 read as luminance 0/1 (alive from 0.5), heat's u as is.
  Simulation simulation(runtime, std::move(request),
                        SimulationStart{.image = std::move(fields_of_step_state(state, kind)[0])});
  simulation.step(steps);
  return step_state_of(simulation.fields(), kind);
}

}  // namespace ks::inputs
