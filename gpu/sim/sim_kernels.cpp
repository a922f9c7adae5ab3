// The simulation kernels as the registry describes them: heat diffusion, Life-like cellular automata and
// Gray-Scott reaction-diffusion. Each advances a state that stays where it is (host or GPU) from step to step;
// they run through ks::Simulation (sim/simulation.hpp), not the stencil engine.
//
// To add a simulation: its spec below (parameters, variants with the files of their code for the Source panel:
// VariantSpec::sources, checked by tests/cpu/test_source_embedded.cpp), one line in register_simulation_kernels,
// and its steps in the CPU and CUDA backends (sim/cpu, sim/cuda) that ks::Simulation dispatches to.
#include <string>

#include "registry/registry.hpp"
#include "sim/life_rule.hpp"
#include "sim/sim_params.hpp"

namespace ks {

namespace {

ParamSpec rule_param() {
  ParamSpec s;
  s.name = "rule";
  s.type = ParamType::Text;
  s.default_text = "B3/S23";
  s.choices = {"B3/S23", "B36/S23", "B2/S", "B3678/S34678"};
  s.text_syntax = "B<counts>/S<counts> with counts 0..8, or a name: conway, highlife, seeds, daynight, ...";
  s.help =
      "Outer-totalistic rule: a dead cell with a B count of live neighbours is born, a live cell with an S count "
      "survives. B3/S23 Conway's Life, B36/S23 HighLife, B2/S Seeds, B3678/S34678 Day & Night";
  s.check_text = [](const std::string& text) { return sim::to_string(sim::parse_life_rule(text)); };
  return s;
}

void add_spot_params(std::vector<ParamSpec>& params, const std::string& what, std::string count, std::string radius) {
  params.push_back(int_param("spots", 0, 100000, std::move(count),
                             "Initial state without an image: how many " + what + " at random places"));
  params.push_back(int_param("spot_radius", 0, 100000, std::move(radius),
                             "Radius of each " + what.substr(0, what.size() - 1) + " in cells (0: a single cell)"));
  params.push_back(int_param("seed", 0, 4294967295.0, "1", "Seed of the random initial state (same seed, same state)"));
}

// `entry`: the step function in the CPU file that the reference runs.
VariantSpec cpu_variant(std::string file, std::string entry) {
  return {"cpu", Backend::Cpu, "CPU reference, threaded across all cores; the ground truth of the tests",
          {{std::move(file), std::move(entry)}}};
}
VariantSpec naive_variant(const std::string& what, SourceFile code) {
  return {"naive", Backend::Cuda, "One thread per cell reading its neighbours from global memory" + what,
          {std::move(code)}};
}
// Heat and Gray-Scott: the field kernels, one per variant, templated on the equation.
VariantSpec field_naive_variant(const std::string& what) {
  return naive_variant(what, {"gpu/sim/cuda/field_naive.cu", "field_naive_kernel("});
}
VariantSpec field_strip_variant() {
  return {"strip", Backend::Cuda,
          "Each warp walks down a strip of rows with three rows in registers: 16-byte loads of 4 cells per thread, "
          "west/east neighbours by warp shuffles, so every cell is read from memory once per step",
          {{"gpu/sim/cuda/field_strip.cu", "field_strip_kernel("}}};
}

VariantSpec field_temporal_variant() {
  return {"temporal", Backend::Cuda,
          "Temporal blocking: steps_per_pass steps per pass over the field, pipelined down each warp's strip in "
          "registers (the strip variant's 16-byte lanes and shuffles), so a step costs less than the one read and "
          "one write that bound every one-step variant; bit-identical to as many single steps",
          {{"gpu/sim/cuda/field_temporal.cu", "field_temporal_kernel("}}};
}

// The temporal variant's k; the other variants run one step per pass and ignore it.
ParamSpec steps_per_pass_param() {
  return choice_param("steps_per_pass", {"1", "2", "4", "8"}, "4",
                      "Steps per pass of the temporal variant (CUDA; the others run one): the field is read and "
                      "written once per this many steps, the steps between stay in registers");
}

// One read and one write of the state per step; `shape` is the state as the variant stores it (a bit-packed
// Life grid is width/8 bytes wide, Gray-Scott has two channels u and v).
std::function<CostModel(const ImageShape&, const ParamSet&)> state_cost(double operations_per_cell) {
  return [operations_per_cell](const ImageShape& shape, const ParamSet&) {
    CostModel c;
    c.bytes = 2 * shape.byte_size();
    c.operations = std::uint64_t(operations_per_cell * double(shape.pixel_count()));
    return c;
  };
}

KernelSpec simulation_spec(std::string id, std::string title, std::string description) {
  KernelSpec k;
  k.id = std::move(id);
  k.title = std::move(title);
  k.category = "simulation";
  k.description = std::move(description);
  k.unavailable_reason = [](const std::string&, const ParamSet&) -> std::optional<std::string> {
    return std::nullopt;
  };
  return k;
}

KernelSpec life_spec() {
  KernelSpec k = simulation_spec(
      "life", "Game of Life",
      "Life-like cellular automaton on a grid of live and dead cells: each step, every cell looks at its 8 "
      "neighbours and the rule decides whether it is alive next. Starts from a random fill (density, seed), an "
      "RLE pattern placed at the centre, or an image (live where brighter than half)");
  k.params = {rule_param(),
              choice_param("border", {"torus", "dead"}, "torus",
                           "torus: the grid wraps around at its edges; dead: cells outside the grid are dead"),
              float_param("density", 0, 1, "0.3", "Random initial state: probability that a cell is alive"),
              int_param("seed", 0, 4294967295.0, "1", "Seed of the random initial state (same seed, same state)"),
              choice_param("steps_per_pass", {"1", "2", "4", "8"}, "8",
                           "The multistep variant's generations per pass over the grid (temporal blocking); the "
                           "other variants run one per pass")};
  k.variants = {cpu_variant("gpu/sim/cpu/life_cpu.cpp", "void life_step("),
                {"cpu_bitpacked", Backend::Cpu,
                 "CPU, 64 cells per 64-bit word: neighbour counts by a bit-sliced adder, the rule by a multiplexer "
                 "tree (the same word arithmetic as the CUDA bitpacked variant)",
                 {{"gpu/sim/cpu/life_cpu.cpp", "void life_step_bits("}}},
                naive_variant(" (9 byte loads per cell, cached)",
                              {"gpu/sim/cuda/life_naive.cu", "life_naive_kernel("}),
                {"tiled", Backend::Cuda,
                 "Each block loads its tile of cells plus a one-cell halo into shared memory once, then counts",
                 {{"gpu/sim/cuda/life_tiled.cu", "life_tiled_kernel("}}},
                {"bitpacked", Backend::Cuda,
                 "64 cells per 64-bit word: each thread walks down a column of words, adds the rows bit-sliced "
                 "(full adders on 64 lanes) and applies the rule by a multiplexer tree; 1 bit of traffic per cell",
                 {{"gpu/sim/cuda/life_bitpacked.cu", "life_bitpacked_kernel("}}},
                {"multistep", Backend::Cuda,
                 "Temporal blocking: steps_per_pass generations per pass over the bit-packed grid. Each warp holds "
                 "a tile plus a halo of that many cells in registers (32-bit words, neighbour bits by warp "
                 "shuffles), steps it there and writes the exact middle: memory traffic per generation falls by "
                 "the pass length, paid for by recomputing the halo",
                 {{"gpu/sim/cuda/life_multistep.cu", "life_multistep_kernel("}}}};
  k.types = {ElemType::U8};
  k.channels = {1};
  k.cost = state_cost(20);  // 8 additions, the rule, the write
  return k;
}

KernelSpec heat_spec() {
  KernelSpec k = simulation_spec(
      "heat", "Heat diffusion",
      "Explicit 5-point finite-difference step of the heat equation du/dt = diffusivity * laplacian(u) on a grid "
      "of unit spacing; stable while diffusivity * dt <= 1/4 (larger dt is refused). Starts from hot spots or "
      "from an image's luminance (0..1)");
  k.params = {float_param("diffusivity", 0, 1000, "1", "Thermal diffusivity (cells^2 per time unit)"),
              float_param("dt", 0, 1e6, "0.2", "Time step; at most 1 / (4 * diffusivity)"),
              choice_param("boundary", {"insulated", "periodic", "fixed"}, "insulated",
                           "insulated: no heat crosses the edge; periodic: the grid wraps around; fixed: the "
                           "outside is held at boundary_value"),
              float_param("boundary_value", -1e6, 1e6, "0", "Temperature outside the grid with boundary=fixed"),
              float_param("spot_value", -1e6, 1e6, "1", "Temperature of the hot spots (the rest starts at 0)")};
  add_spot_params(k.params, "hot spots", "12", "12");
  k.params.push_back(steps_per_pass_param());
  k.variants = {cpu_variant("gpu/sim/cpu/field_cpu.cpp", "void heat_step("),
                field_naive_variant(" (5 loads per cell, cached)"), field_strip_variant(), field_temporal_variant()};
  k.types = {ElemType::F32};
  k.channels = {1};
  k.cost = state_cost(6);  // 4 additions, a multiply and an add
  return k;
}

KernelSpec grayscott_spec() {
  KernelSpec k = simulation_spec(
      "grayscott", "Gray-Scott reaction-diffusion",
      "Two chemicals u and v: du/dt = Du lap(u) - u v^2 + F (1 - u), dv/dt = Dv lap(v) + u v^2 - (F + k) v, "
      "explicit 5-point steps (dt <= 1 / (4 max(Du, Dv))). Starts from u = 1, v = 0 with random seed squares "
      "(u = 0.5, v = 0.25), or from an image (v = luminance / 4, u = 1 - 2 v). The image shows v");
  std::vector<std::string> presets = {"custom"};
  for (const auto& p : sim::grayscott_presets()) presets.push_back(p.name);
  std::string preset_help = "custom: F and k as given; otherwise the preset's F and k:";
  for (const auto& p : sim::grayscott_presets())
    preset_help += " " + p.name + " (" + p.looks_like + ")" + (&p == &sim::grayscott_presets().back() ? "" : ",");
  k.params = {choice_param("preset", presets, "custom", preset_help),
              float_param("F", 0, 0.2, "0.0545", "Feed rate of u (with preset=custom)"),
              float_param("k", 0, 0.2, "0.062", "Kill rate of v (with preset=custom)"),
              float_param("Du", 0, 100, "0.2097", "Diffusion rate of u (cells^2 per time unit)"),
              float_param("Dv", 0, 100, "0.105", "Diffusion rate of v"),
              float_param("dt", 0, 1e6, "1", "Time step; at most 1 / (4 max(Du, Dv))"),
              choice_param("boundary", {"periodic", "insulated"}, "periodic",
                           "periodic: the grid wraps around; insulated: nothing crosses the edge")};
  add_spot_params(k.params, "seed squares", "24", "6");
  k.params.push_back(steps_per_pass_param());
  k.variants = {cpu_variant("gpu/sim/cpu/field_cpu.cpp", "void grayscott_step("),
                field_naive_variant(" (10 loads per cell, cached)"), field_strip_variant(), field_temporal_variant()};
  k.types = {ElemType::F32};
  k.channels = {2};
  k.cost = state_cost(26);
  return k;
}

}  // namespace

void register_simulation_kernels(KernelRegistry& registry) {
  registry.add(life_spec());
  registry.add(heat_spec());
  registry.add(grayscott_spec());
}

}  // namespace ks
