#include "sim/simulation.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/runtime.hpp"
#include "registry/registry.hpp"
#include "sim/cpu/life_cpu.hpp"
#include "sim/cuda/sim_cuda.hpp"
#include "sim/initial_state.hpp"
#include "sim/sim_backend.hpp"

namespace ks {

namespace {

constexpr int kMaxSide = sim::kMaxGridSide;  // brush radii too

const KernelSpec& simulation_spec(const std::string& kernel) {
  const KernelSpec& spec = KernelRegistry::builtin().get(kernel);
  if (spec.category != "simulation")
    throw_usage(fmt::format("'{}' is not a simulation kernel", spec.id),
                "simulations are life, heat and grayscott; run image kernels with `kernelscope-cli run`");
  return spec;
}

std::string checked_variant(const KernelSpec& spec, Backend backend, const std::string& asked) {
  const std::string variant = asked.empty() ? Simulation::default_variant(spec, backend) : asked;
  const VariantSpec* v = spec.find_variant(variant);
  if (!v) {
    std::string known;
    for (const auto& x : spec.variants) known += (known.empty() ? "" : ", ") + x.name;
    throw_usage(fmt::format("kernel '{}' has no variant '{}'", spec.id, variant), "its variants are: " + known);
  }
  if (v->backend != backend)
    throw_usage(fmt::format("variant '{}' runs on the {} backend, not {}", variant, to_string(v->backend),
                            to_string(backend)),
                fmt::format("use --backend {} with it, or drop --variant", to_string(v->backend)));
  return variant;
}

sim::SimModel make_model(const KernelSpec& spec, const ParamSet& params, int width, int height) {
  sim::SimModel m;
  m.kind = sim::sim_kind_of(spec.id);
  m.width = width;
  m.height = height;
  switch (m.kind) {
    case sim::SimKind::Life: m.life = sim::life_params(params); break;
    case sim::SimKind::Heat: m.heat = sim::heat_params(params); break;
    case sim::SimKind::GrayScott: m.grayscott = sim::grayscott_params(params); break;
  }
  return m;
}

// A pattern runs under the rule its file names, unless the parameters set one.
void take_pattern_rule(ParamSet& params, const std::optional<std::string>& rule) {
  if (rule && !params.was_set("rule")) params.set("rule", *rule);
}

std::vector<std::string> param_names(const ParamSet& params) {
  std::vector<std::string> names;
  for (const auto& [name, value] : params.as_text()) names.push_back(name);
  return names;
}

// The grid a request asks for: the image's size, --size, or the default.
std::pair<int, int> grid_size_of(const SimulationRequest& request, const SimulationStart& start) {
  int w = request.width, h = request.height;
  if (start.image) {
    if (start.image->empty()) throw_usage("the image is empty", "give an image with at least one pixel");
    const int iw = start.image->width(), ih = start.image->height();
    if ((w || h) && (w != iw || h != ih))
      throw_usage(fmt::format("the grid size {}x{} differs from the image's {}x{}", w, h, iw, ih),
                  "drop --size: a grid started from an image has the image's size");
    return {iw, ih};
  }
  if (!w && !h) return {kDefaultSimSize, kDefaultSimSize};
  return {w, h};
}

}  // namespace

std::string Simulation::default_variant(const KernelSpec& spec, Backend backend) {
  if (backend == Backend::Cpu) return "cpu";
  return spec.id == "life" ? "bitpacked" : "strip";
}

Simulation::Simulation(Runtime& runtime, SimulationRequest request, SimulationStart start)
    : runtime_(runtime), request_(std::move(request)) {
  // Everything about the request first; no memory is taken and no device is touched before it all holds.
  const KernelSpec& spec = simulation_spec(request_.kernel);
  request_.kernel = spec.id;
  if (request_.params.specs().empty()) request_.params = spec.default_params();
  variant_ = request_.own_backend ? (request_.variant.empty() ? std::string("yours") : request_.variant)
                                  : checked_variant(spec, request_.backend, request_.variant);
  if (request_.backend == Backend::Cpu && request_.block && !request_.own_backend)
    throw_usage("--block applies to the CUDA backend only", "drop --block, or use --backend cuda");
  if (start.image && start.pattern)
    throw_usage("give an image or a pattern, not both", "a pattern is placed on an empty grid");
  if (start.pattern && spec.id != "life")
    throw_usage(fmt::format("patterns are Life patterns; '{}' starts from an image or its parameters", spec.id));
  if (start.pattern) pattern_rule_ = start.pattern->rule;
  take_pattern_rule(request_.params, pattern_rule_);
  const auto [w, h] = grid_size_of(request_, start);
  const sim::SimKind kind = sim::sim_kind_of(spec.id);
  // Your own backend takes the state as bytes or floats, as the byte variants do.
  sim::check_grid_size(kind, request_.own_backend ? std::string("yours") : variant_, w, h);
  if (!request_.own_backend) {
    const sim::SimMemoryNeed need = sim::simulation_memory(kind, variant_, request_.backend, w, h);
    sim::require_memory(fmt::format("{} {} on a {}x{} grid", spec.id, variant_, w, h), need.host_bytes,
                        available_host_memory(), "host", need.host_detail, "", "use a smaller --size");
  }
  if (start.pattern) sim::check_pattern_fits(*start.pattern, w, h);
  model_ = std::make_unique<sim::SimModel>(make_model(spec, request_.params, w, h));

  // The backend before the initial state: the CUDA one checks the block and the device's free memory, which
  // should refuse before a 65536 x 65536 random fill spends its seconds.
  if (request_.own_backend) {
    backend_ = request_.own_backend(*model_);
  } else if (request_.backend == Backend::Cpu) {
    backend_ = sim::make_cpu_backend(*model_, variant_, runtime_.pool());
  } else {
    backend_ = sim::cuda::make_cuda_backend(runtime_.cuda(), *model_, variant_,
                                            request_.block.value_or(BlockShape{32, 8}));
  }
  if (kind == sim::SimKind::Life && !request_.own_backend && sim::stores_life_words(variant_))
    initial_words_ =
        std::make_unique<sim::cpu::LifeWords>(sim::initial_life_words(*model_, start.image, start.pattern));
  else
    initial_ = sim::initial_fields(*model_, start.image, start.pattern);
  load_initial_state();
}

void Simulation::load_initial_state() {
  if (initial_words_) backend_->load_words(*initial_words_);
  else backend_->load(initial_);
}

sim::SimMemoryNeed Simulation::memory_needed(const SimulationRequest& request, const SimulationStart& start) {
  const KernelSpec& spec = simulation_spec(request.kernel);
  const std::string variant =
      request.own_backend ? std::string("yours") : checked_variant(spec, request.backend, request.variant);
  const auto [w, h] = grid_size_of(request, start);
  const sim::SimKind kind = sim::sim_kind_of(spec.id);
  sim::check_grid_size(kind, variant, w, h);
  return sim::simulation_memory(kind, variant, request.backend, w, h);
}

Simulation::~Simulation() = default;

int Simulation::width() const noexcept { return model_->width; }
int Simulation::height() const noexcept { return model_->height; }

void Simulation::step(long long n) {
  if (n < 0) throw_usage(fmt::format("cannot run {} steps", n), "give a number of steps >= 0");
  const std::size_t before = step_ms_.size();
  backend_->step(n, step_ms_);
  if (!first_step_ms_ && step_ms_.size() > before) first_step_ms_ = step_ms_[before];
  generation_ += n;
  // Keep the newest samples: a GUI left running for hours must not grow without bound.
  if (step_ms_.size() > kMaxTimingSamples)
    step_ms_.erase(step_ms_.begin(), step_ms_.begin() + std::ptrdiff_t(step_ms_.size() - kMaxTimingSamples));
}

void Simulation::reset() {
  load_initial_state();
  generation_ = 0;
}

ParamUpdate Simulation::set_params(ParamSet params) {
  const KernelSpec& spec = KernelRegistry::builtin().get(request_.kernel);
  if (params.specs().empty()) params = spec.default_params();
  if (param_names(params) != param_names(request_.params))
    throw_usage(fmt::format("these parameters are not those of '{}'", spec.id),
                "start from the kernel's default parameters and set them");
  take_pattern_rule(params, pattern_rule_);
  // The constructor's checks, before anything changes.
  sim::SimModel next = make_model(spec, params, model_->width, model_->height);
  ParamUpdate update;
  const auto before = request_.params.as_text(), after = params.as_text();
  for (std::size_t i = 0; i < after.size(); ++i)
    if (after[i].second != before[i].second && sim::is_initial_state_param(after[i].first))
      update.restart.push_back(after[i].first);
  if (!update.restart.empty()) return update;
  backend_->set_model(next);  // throws, changing nothing, when the variant cannot run it
  *model_ = std::move(next);
  request_.params = std::move(params);
  update.applied = true;
  return update;
}

Image Simulation::image() { return std::move(backend_->read().back()); }
std::vector<Image> Simulation::fields() { return backend_->read(); }
DeviceImageRef Simulation::device_image() { return backend_->device_image(); }
std::vector<DeviceImageRef> Simulation::device_fields() { return backend_->device_fields(); }

void Simulation::paint(int x, int y, int radius, double value) {
  if (radius < 0 || radius > kMaxSide)
    throw_usage(fmt::format("brush radius {} is out of range", radius), fmt::format("use 0 .. {}", kMaxSide));
  if (!std::isfinite(value)) throw_usage("the brush value is not a number");
  switch (model_->kind) {
    case sim::SimKind::Life:
      if (value != 0 && value != 1)
        throw_usage(fmt::format("life: brush value {} is neither 1 (alive) nor 0 (dead)", value));
      break;
    case sim::SimKind::GrayScott:
      if (value < 0 || value > 0.5)
        throw_usage(fmt::format("grayscott: brush value {} is out of range", value),
                    "give the concentration of v, 0 .. 0.5 (u becomes 1 - 2 v)");
      break;
    case sim::SimKind::Heat: break;
  }
  backend_->paint(sim::Brush{x, y, radius, value});
}

long long Simulation::population() {
  if (model_->kind != sim::SimKind::Life)
    throw_usage(fmt::format("'{}' has no population; only life has", request_.kernel), "use total()");
  return backend_->population();
}

double Simulation::total() {
  if (model_->kind == sim::SimKind::Life)
    throw_usage("life has a population, not a total", "use population()");
  return backend_->total();
}

Image Simulation::density_view(const sim::DensityWindow& window) {
  if (model_->kind != sim::SimKind::Life)
    throw_usage(fmt::format("'{}' has no density view; only life has", request_.kernel), "use image()");
  sim::check_density_window(window);
  return backend_->density_view(window, runtime_.pool());
}

SimulationStats Simulation::stats() {
  SimulationStats s;
  s.generation = generation_;
  if (model_->kind == sim::SimKind::Life) s.population = backend_->population();
  else s.total = backend_->total();
  return s;
}

const CounterReading& Simulation::read_counters() { return counters_.emplace(backend_->read_counters()); }

SimulationReport Simulation::report() {
  const KernelSpec& spec = KernelRegistry::builtin().get(request_.kernel);
  SimulationReport r;
  r.kernel = spec.id;
  r.variant = variant_;
  r.backend = request_.backend;
  r.device = backend_->device_name();
  r.width = model_->width;
  r.height = model_->height;
  r.params = request_.params.as_text();
  r.block = backend_->block();
  r.generation = generation_;
  r.step_time = TimingStats::of(step_ms_);
  r.first_launch_ms = first_step_ms_;
  const CostModel cost = spec.cost(backend_->stored_shape(), request_.params);
  r.bytes_per_step = cost.bytes;
  // multistep reads and writes the state once per pass of steps_per_pass generations (its halo rows and words
  // are re-read mostly from the L2): the traffic of a generation is a pass's over the generations it runs.
  if (variant_ == "multistep") r.bytes_per_step /= std::uint64_t(model_->life.steps_per_pass);
  if (r.step_time.median_ms > 0) {
    r.steps_per_second = 1000.0 / r.step_time.median_ms;
    r.cell_updates_per_second = double(model_->width) * double(model_->height) * r.steps_per_second;
    r.gbps = double(r.bytes_per_step) / (r.step_time.median_ms * 1e6);
  }
  r.copy_bandwidth_gbps = backend_->copy_bandwidth_gbps();
  if (r.copy_bandwidth_gbps > 0) r.percent_of_copy = 100.0 * r.gbps / r.copy_bandwidth_gbps;
  r.occupancy = backend_->occupancy();
  // Operations count the definition's work per cell (sim_kernels.cpp: Life 20, heat 6, Gray-Scott 26),
  // whatever the variant stores: a bit-packed Life grid (8 cells per stored byte) does a byte grid's
  // operations in an eighth of the traffic, and its point on the roofline moves right by as much.
  ImageShape cells = backend_->stored_shape();
  cells.width = model_->width;
  cells.height = model_->height;
  r.roofline = roofline_figures(spec.cost(cells, request_.params).operations, r.bytes_per_step,
                                r.step_time.median_ms, runtime_.peaks(request_.backend));
  if (counters_) {
    r.counters = counters_->counters;
    r.counters_unavailable = counters_->unavailable;
  }
  return r;
}

}  // namespace ks
