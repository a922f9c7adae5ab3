// The session's own side: making the documents, and the Kernel section's request, checked here and passed to
// the active document. Running, the display and exports are in session_runs.cpp.
#include "session/session.hpp"

#include <fmt/format.h>

#include "core/cuda_context.hpp"
#include "registry/registry.hpp"
#include "session/lab/lab_document.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::app {

Session::Session(Options options)
    : options_(std::move(options)),
      engine_(std::make_unique<Engine>(Engine::Options{options_.cpu_threads})) {
  if (!options_.now) options_.now = [] { return Clock::now(); };
  const unsigned threads = engine_->pool().size();
  device_.cpu = fmt::format("CPU ({} thread{})", threads, threads == 1 ? "" : "s");
  if (!options_.use_cuda) {
    device_.unavailable_reason = "the CUDA backend was switched off for this session (--backend cpu)";
  } else if (engine_->cuda_available()) {
    // Creating the context here (it takes a moment on a GPU) rather than on the worker keeps one thread
    // responsible for it; afterwards the worker is the only user of the engine.
    device_.cuda = true;
    device_.info = engine_->cuda().device();
    engine_->cuda().set_counter_set(counter_set_);  // the app's default; later choices go through the worker
    device_.free_memory = device_.info.free_memory;
  } else {
    device_.unavailable_reason = engine_->cuda_unavailable_reason();
  }
  choice_.backend = device_.cuda ? Backend::Cuda : Backend::Cpu;
  choice_.kernel = &KernelRegistry::builtin().get("box");
  choice_.params = choice_.kernel->default_params();
  worker_ = std::make_unique<Worker>([this](const std::string& label, std::exception_ptr e) {
    try {
      std::rethrow_exception(e);
    } catch (const Error& err) {
      notify(Notice::Level::Error, Notice::Source::Other, label + ": " + err.full_message());
    } catch (const std::exception& err) {
      notify(Notice::Level::Error, Notice::Source::Other,
             label + " failed: " + err.what() + ". This is a bug of kernelscope");
    }
  });
  make_stencil_document();
  make_simulation_runner();
  make_lab_document();
  pass_request_to_stencil();
  if (device_.cuda) start_device_probe();
  refresh_launch_info();
}

Session::~Session() = default;

void Session::make_stencil_document() {
  StencilDocument::Options o;
  o.debounce = options_.debounce;
  o.warmup = options_.warmup;
  o.repeat = options_.repeat;
  o.sweep_repeat = options_.sweep_repeat;
  o.reference_repeat = options_.reference_repeat;
  o.download_cuda_results = options_.download_cuda_results;
  o.history_limit = options_.history_limit;
  o.now = options_.now;
  o.started = Clock::now();
  StencilDocument::Hooks hooks;
  hooks.notify = [this](Notice::Level level, Notice::Source source, std::string text) {
    notify(level, source, std::move(text));
  };
  hooks.input_changed = [this] {
    lab_->set_image(stencil_->file_image());  // kmeans runs on the image as loaded
    refresh_launch_info();
    request_run();
  };
  hooks.takes_results = [this] { return !in_lab(); };
  stencil_ = std::make_unique<StencilDocument>(*engine_, *worker_, device_, generations_, std::move(o),
                                               std::move(hooks));
  stencil_->set_counter_set(counter_set_);
}

void Session::pass_request_to_stencil() { stencil_->set_request(choice_); }

TopologyDocument& Session::topology() {
  if (!topology_)
    topology_ = std::make_unique<TopologyDocument>(TopologyDocument::Options{options_.cpu_threads, options_.use_cuda});
  return *topology_;
}

void Session::notify(Notice::Level level, Notice::Source source, std::string text) {
  notices_.push_back({level, source, std::move(text)});
}

// ---- request ----
// Each change is checked, kept here, and passed to the stencil document (pass_request_to_stencil) whatever
// family is active, so that the stencil document always holds the request it would run.

void Session::select_kernel(const std::string& id) {
  const KernelSpec& spec = KernelRegistry::builtin().get(id);
  if (!can_run(spec))
    throw_usage(fmt::format("the app runs image stencils, simulations and lab kernels, and '{}' is a {} kernel",
                            spec.id, spec.category),
                "run it with kernelscope-cli");
  choice_.kernel = &spec;
  choice_.params = spec.default_params();
  if (!choice_.variant.empty() && !spec.find_variant(choice_.variant)) choice_.variant.clear();
  if (simulating()) enter_simulation();
  else simulation_->deactivate();
  if (in_lab()) enter_lab();
  keep_user_array_kernel_if_it_fits();
  pass_request_to_stencil();
  stencil_->drop_sweep();
  refresh_launch_info();
  request_run();
}

void Session::use_user_kernel(std::optional<UserStencilChoice> choice) {
  if (choice && choice_.kernel->category != "stencil") select_kernel("box");
  stencil_->set_user_kernel(std::move(choice));
  refresh_launch_info();
}

void Session::set_param(const std::string& name, const std::string& text) {
  if (in_lab()) {  // the lab checks the whole request (kmeans' k against the image, ...)
    lab_->set_param(name, text);
    choice_.params = lab_->request().params;
    pass_request_to_stencil();
    return;
  }
  ParamSet next = choice_.params;
  next.set(name, text);  // throws before anything changes
  if (simulating()) check_simulation_params(choice_.kernel->id, next);  // dt beyond the stability limit, ...
  choice_.params = std::move(next);
  pass_request_to_stencil();
  refresh_launch_info();
  request_run();
}

void Session::reset_params() {
  if (in_lab()) lab_->set_params(choice_.kernel->default_params());
  choice_.params = choice_.kernel->default_params();
  pass_request_to_stencil();
  refresh_launch_info();
  request_run();
}

void Session::set_backend(Backend backend) {
  if (backend == Backend::Cuda && !device_.cuda)
    throw Error(ErrorKind::Device, "the CUDA backend is not available: " + device_.unavailable_reason,
                "the CPU backend runs every kernel");
  if (backend == choice_.backend) return;
  if (in_lab()) lab_->set_backend(backend);
  choice_.backend = backend;
  choice_.variant.clear();
  pass_request_to_stencil();
  stencil_->drop_sweep();
  refresh_launch_info();
  request_run();
}

void Session::set_counters(bool on) {
  stencil_->set_counters(on);  // the switch is kept there for every document
  simulation_->set_counters(on);  // read once per simulation and parameters, while one runs
  if (in_lab()) {
    lab_->set_counters(on);
    if (on) request_run();
  }
}

void Session::set_counter_set(CounterSet set) {
  if (set == counter_set_) return;
  counter_set_ = set;
  stencil_->set_counter_set(set);
  if (lab_) lab_->set_counter_set(set);
  simulation_->set_counter_set(set);
  apply_counter_set();
  if (counters()) request_run();
}

void Session::apply_counter_set() {
  worker_->submit("counter-set", "Choosing the counters", [engine = engine_.get(), set = counter_set_](Worker::Context&) {
    if (engine->cuda_available()) engine->cuda().set_counter_set(set);
  });
}

std::string Session::effective_variant() const {
  if (in_lab()) return lab_->effective_variant();
  if (simulating()) return choice_.variant.empty() ? Simulation::default_variant(*choice_.kernel, choice_.backend) : choice_.variant;
  return stencil_->effective_variant();
}

void Session::set_variant(const std::string& name) {
  const VariantSpec* v = choice_.kernel->find_variant(name);
  if (!v) {
    std::string known;
    for (const auto& x : choice_.kernel->variants) known += (known.empty() ? "" : ", ") + x.name;
    throw_usage(fmt::format("kernel '{}' has no variant '{}'", choice_.kernel->id, name), "its variants are: " + known);
  }
  if (in_lab()) {
    lab_->set_variant(name);  // switches the lab's backend along with it
    choice_.backend = lab_->request().backend;
    choice_.variant = name;
    pass_request_to_stencil();
    return;
  }
  if (v->backend != choice_.backend) set_backend(v->backend);  // throws when that backend is unavailable
  choice_.variant = name;
  pass_request_to_stencil();
  stencil_->drop_sweep();
  refresh_launch_info();
  request_run();
}

void Session::set_block(std::optional<BlockShape> block) {
  if (in_lab()) {
    lab_->set_block(block);
    choice_.block = block;
    pass_request_to_stencil();
    return;
  }
  if (block) {
    if (block->x < 1 || block->y < 1)
      throw_usage(fmt::format("block {} has no threads", to_string(*block)), "both sides must be at least 1");
    // A usage Error names the limit the block breaks, and the previous block stays.
    if (!simulating()) stencil_->check_block(*block);
  }
  choice_.block = block;
  pass_request_to_stencil();
  refresh_launch_info();
  request_run();
}

void Session::refresh_launch_info() {
  launch_info_ = {};
  if (in_lab()) {
    launch_info_.problem = "lab kernels: the Lab section shows each run's launch arithmetic and occupancy";
    return;
  }
  if (simulating() && choice_.backend == Backend::Cuda) return sync_simulation_launch_info();
  launch_info_ = stencil_->launch_info();  // for a simulation on the CPU backend: why there are no blocks
}

BlockShape Session::suggest_block() {
  if (simulating() || in_lab()) throw_usage("Suggest works for image stencils", "pick the block by hand");
  return stencil_->suggest_block();
}

}  // namespace ks::app
