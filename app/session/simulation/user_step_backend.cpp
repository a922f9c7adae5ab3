#include "session/simulation/user_step_backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/error.hpp"
#include "core/runtime.hpp"
#include "engine/engine.hpp"
#include "inputs/step_reference.hpp"
#include "report/user_run_report.hpp"
#include "session/user_kernel_reply.hpp"
#include "sim/simulation.hpp"
#include "usercode/check/compare.hpp"
#include "usercode/run/user_step.hpp"

namespace ks::app {

namespace {

const char* kind_name(sim::SimKind kind) {
  switch (kind) {
    case sim::SimKind::Life: return "life";
    case sim::SimKind::Heat: return "heat";
    case sim::SimKind::GrayScott: return "grayscott";
  }
  return "?";
}

}  // namespace

UserStepBackend::UserStepBackend(const sim::SimModel& model, UserStepContext context)
    : model_(model), context_(std::move(context)) {
  if (!context_.choice || !context_.choice->kernel || !context_.choice->kernel->ok())
    throw_usage("your kernel does not compile", "fix the errors the editor marks, then run it");
  type_ = usercode::step_element(*context_.choice->kernel);
  inputs::check_step_reference(kind_name(model.kind), type_);
  if (!context_.worker) throw Error(ErrorKind::Internal, "a user step kernel without its worker");
  const usercode::WorkerHello& hello = context_.worker->hello();
  if (!hello.ok)
    throw Error(ErrorKind::Device, "cannot run your kernel: " + hello.message,
                "running your own kernel needs an NVIDIA GPU; the editor still compiles it and shows what the "
                "compiler made of it");
  usercode::check_user_block(*context_.choice->kernel, context_.block);
  state_ = Image(model.width, model.height, 1, type_);
}

void UserStepBackend::load(const sim::Fields& state) {
  state_ = inputs::step_state_of(state, model_.kind);
  host_current_ = true;
  device_state_.clear();  // the host's state is the current one: the next step uploads it
}

void UserStepBackend::set_model(const sim::SimModel& model) {
  // The built-in's rule, border or coefficients are the reference's; the user's kernel has its own.
  const int w = model_.width, h = model_.height;
  model_ = model;
  model_.width = w;
  model_.height = h;
}

usercode::UserLaunchOptions UserStepBackend::launch_options() const {
  usercode::UserLaunchOptions launch;
  launch.params = context_.choice->params;
  launch.block = context_.block;
  launch.cancelled = cancelled_;
  return launch;
}

Image UserStepBackend::run_steps(const Image& from, long long n, std::vector<double>* step_ms) {
  Image state;
  const Image* current = &from;  // no copy of a state that may be 256 MB: each request reads the last one
  for (long long done = 0; done < n;) {
    const long long steps = std::min(n - done, kMaxStepsPerRequest);
    usercode::UserStepRun run = usercode::run_user_steps(*context_.worker, *context_.choice->kernel, *current,
                                                         static_cast<int>(steps), launch_options());
    throw_unless_run_ok(run.reply);
    attributes_ = run.reply.attributes;
    if (step_ms) step_ms->insert(step_ms->end(), run.reply.kernel_ms.begin(), run.reply.kernel_ms.end());
    state = std::move(run.state);
    current = &state;
    done += steps;
  }
  return state;
}

bool UserStepBackend::state_on_worker() const {
  return !device_state_.empty() && context_.worker->running() && context_.worker->starts() == device_worker_;
}

void UserStepBackend::lose_device_state(const usercode::WorkerReply* reply) {
  const bool lost = !device_state_.empty() && !host_current_;
  device_state_.clear();
  host_current_ = true;
  const std::string back = "the simulation goes back to the last state shown";
  if (reply && reply->outcome != usercode::RunOutcome::Ok) {
    try {
      throw_unless_run_ok(*reply);  // a fault, a time-out: in its own words
    } catch (const Error& e) {
      if (!lost) throw;
      throw Error(e.kind(), std::string(e.what()) + "; " + back, e.hint());
    }
  }
  throw Error(ErrorKind::Device,
              "the worker running your kernel started again, so the state it kept on the GPU is gone: " + back,
              "run your kernel again (Run in the kernel editor) to go on from there");
}

usercode::UserStepRun UserStepBackend::request(int steps, bool download) {
  if (!device_state_.empty() && !state_on_worker()) lose_device_state(nullptr);
  usercode::StepStates states;
  if (device_state_.empty()) states.initial = &state_;
  else states.held = device_state_;
  // A request of no launch keeps the state under its name; steps keep the next one under a new name.
  states.keep_as = steps == 0 && !states.held.empty() ? states.held : context_.worker->new_buffer_name("step state");
  states.download = download;
  usercode::UserStepRun run;
  try {
    run = usercode::run_user_steps(*context_.worker, *context_.choice->kernel, state_.shape(), steps, states,
                                   launch_options());
  } catch (const Error&) {
    // Cancelled (the worker was stopped), or no worker: what it kept is gone, and the host's state goes on.
    if (!state_on_worker()) {
      device_state_.clear();
      host_current_ = true;
    }
    throw;
  }
  // The worker's state is gone (a fresh worker) or was not taken further (a fault): the host's goes on.
  if (run.reply.outcome != usercode::RunOutcome::Ok)
    lose_device_state(usercode::held_state_missing(run.reply) ? nullptr : &run.reply);
  device_state_ = states.keep_as;
  device_worker_ = context_.worker->starts();
  if (steps > 0) host_current_ = false;  // the worker's state is ahead of the host's now
  return run;
}

void UserStepBackend::step(long long n, std::vector<double>& step_ms) {
  // The state stays on the worker's GPU between requests and comes back only when read (a shown frame): an
  // animation runs at the kernel's speed. A failed request throws, and the state is the host's last one.
  for (long long done = 0; done < n;) {
    const long long steps = std::min(n - done, kMaxStepsPerRequest);
    const usercode::UserStepRun run = request(static_cast<int>(steps), false);
    attributes_ = run.reply.attributes;
    step_ms.insert(step_ms.end(), run.reply.kernel_ms.begin(), run.reply.kernel_ms.end());
    done += steps;
  }
}

void UserStepBackend::bring_state_home() {
  if (host_current_) return;
  usercode::UserStepRun run = request(0, true);  // no launch: the kept state comes back and stays kept
  state_ = std::move(run.state);
  host_current_ = true;
}

CounterReading UserStepBackend::read_counters() {
  // One more launch from the current state under the worker's profiler, with no step taken: it reads the state
  // (kept on the worker, or uploaded from the host and not kept) and writes the other buffer, so the state and
  // the generation stay.
  if (!device_state_.empty() && !state_on_worker()) lose_device_state(nullptr);
  usercode::StepStates states;
  if (device_state_.empty()) states.initial = &state_;
  else states.held = device_state_;
  states.download = false;
  usercode::UserLaunchOptions launch = launch_options();
  launch.counters = true;
  launch.counter_set = counter_set_;
  const usercode::UserStepRun run =
      usercode::run_user_steps(*context_.worker, *context_.choice->kernel, state_.shape(), 0, states, launch);
  throw_unless_run_ok(run.reply);
  if (!run.reply.counters) return {std::nullopt, "the worker sent no counters back (a bug in kernelscope)"};
  return *run.reply.counters;
}

sim::Fields UserStepBackend::read() {
  bring_state_home();
  return inputs::fields_of_step_state(state_, model_.kind);
}

void UserStepBackend::paint(const sim::Brush& b) {
  bring_state_home();
  device_state_.clear();  // painted on the host: the next step uploads it
  // In the kernel's form: Life's brush makes cells 1 (alive) or 0, heat's sets the temperature.
  for (int y = std::max(0, b.y - b.radius); y <= std::min(model_.height - 1, b.y + b.radius); ++y)
    for (int x = std::max(0, b.x - b.radius); x <= std::min(model_.width - 1, b.x + b.radius); ++x) {
      if (!b.covers(x, y)) continue;
      if (type_ == ElemType::U8) state_.row<std::uint8_t>(y)[x] = b.value != 0 ? 1 : 0;
      else state_.row<float>(y)[x] = static_cast<float>(b.value);
    }
}

long long UserStepBackend::population() {
  bring_state_home();
  const auto cells = state_.elements<std::uint8_t>();
  return static_cast<long long>(std::count_if(cells.begin(), cells.end(), [](std::uint8_t c) { return c != 0; }));
}

double UserStepBackend::total() {
  bring_state_home();
  const auto u = state_.elements<float>();
  return std::accumulate(u.begin(), u.end(), 0.0);
}

ImageShape UserStepBackend::stored_shape() const { return ImageShape{model_.width, model_.height, 1, type_}; }

std::string UserStepBackend::device_name() const { return context_.worker->hello().device; }

std::optional<BlockShape> UserStepBackend::block() const {
  return BlockShape{static_cast<int>(context_.block[0]), static_cast<int>(context_.block[1])};
}

std::optional<OccupancyReport> UserStepBackend::occupancy() const {
  if (!context_.device) return std::nullopt;
  return report::user_occupancy(*context_.choice->kernel, attributes_, *context_.device, context_.block);
}

double UserStepBackend::copy_bandwidth_gbps() {
  return context_.copy_bandwidth_gbps ? context_.copy_bandwidth_gbps() : 0;
}

UserStepCheck UserStepBackend::check(Runtime& runtime, const Simulation& simulation, long long steps,
                                     const usercode::Tolerance& tolerance, Image* difference) {
  if (steps < 1) throw_usage(fmt::format("cannot check {} steps", steps), "check 1 step or more");
  UserStepCheck c;
  c.generation = simulation.generation();
  c.steps = steps;
  c.tolerance = tolerance;
  c.reference = simulation.kernel() + " on the CPU";
  bring_state_home();
  const Image got = run_steps(state_, steps, nullptr);
  SimulationRequest reference;
  reference.kernel = simulation.kernel();
  reference.params = simulation.params();
  reference.backend = Backend::Cpu;
  reference.variant = "cpu";
  const Image expected = inputs::builtin_steps(runtime, std::move(reference), state_, steps);
  c.comparison = usercode::compare_images(got, expected, tolerance, &runtime.pool());
  if (difference) *difference = usercode::difference_image(got, expected, &runtime.pool());
  return c;
}

void attach_user_step(SimulationRequest& request, Engine& engine, bool app_gpu, const SimulationSetup& setup,
                      std::shared_ptr<usercode::WorkerClient> worker, UserStepBackend** made) {
  UserStepContext context;
  context.choice = setup.user;
  context.worker = std::move(worker);
  if (setup.block)
    context.block = {static_cast<unsigned>(setup.block->x), static_cast<unsigned>(setup.block->y)};
  const bool gpu = app_gpu && engine.cuda_available();
  if (gpu) {
    context.device = engine.cuda().device();
    context.copy_bandwidth_gbps = [&engine] { return engine.cuda().copy_bandwidth_gbps(); };
  }
  request.backend = gpu ? Backend::Cuda : Backend::Cpu;
  request.variant = "yours";
  request.block.reset();  // the backend's own
  request.own_backend = [context = std::move(context), made](const sim::SimModel& model) {
    auto backend = std::make_unique<UserStepBackend>(model, context);
    if (made) *made = backend.get();
    return backend;
  };
}

}  // namespace ks::app
