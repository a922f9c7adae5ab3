// The session's document side: input, request and launch information. Runs, sweeps and results are in
// session_runs.cpp.
#include "session/session.hpp"

#include <fmt/format.h>

#include <cmath>

#include "assets.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "stencil/cuda/stencil_cuda.hpp"
#include "stencil/stencil_plan.hpp"
#include "session/lab/lab_document.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::app {

namespace {

const char* kSampleName = "embedded sample";

}  // namespace

bool produces_signed_output(const std::string& kernel, const ParamSet& params) {
  if (kernel == "laplacian") return true;
  if (kernel == "sobel") return params.get_choice("output") != "magnitude";
  if (kernel == "convolve") {
    // A matrix whose weights sum to 0 measures change (an edge or derivative filter): its result is signed.
    double sum = 0;
    for (double w : params.get_matrix("matrix").values) sum += w;
    return std::abs(sum) < 1e-9;
  }
  return false;
}

Session::Session(Options options)
    : options_(std::move(options)),
      started_(Clock::now()),
      engine_(std::make_unique<Engine>(Engine::Options{options_.cpu_threads})),
      history_(options_.history_limit) {
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
    device_.free_memory = device_.info.free_memory;
  } else {
    device_.unavailable_reason = engine_->cuda_unavailable_reason();
  }
  backend_ = device_.cuda ? Backend::Cuda : Backend::Cpu;
  kernel_ = &KernelRegistry::builtin().get("box");
  params_ = kernel_->default_params();
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
  make_simulation_runner();
  make_lab_document();
  if (device_.cuda) start_device_probe();
  refresh_launch_info();
}

Session::~Session() = default;

TopologyDocument& Session::topology() {
  if (!topology_)
    topology_ = std::make_unique<TopologyDocument>(TopologyDocument::Options{options_.cpu_threads, options_.use_cuda});
  return *topology_;
}

Session::Clock::time_point Session::now() const { return options_.now(); }

double Session::seconds_since_start() const {
  return std::chrono::duration<double>(Clock::now() - started_).count();
}

void Session::notify(Notice::Level level, Notice::Source source, std::string text) {
  notices_.push_back({level, source, std::move(text)});
}

// ---- input ----

void Session::open_image(const std::filesystem::path& path) {
  auto image = std::make_shared<const Image>(load_image(path));
  set_input(std::move(image), path.string(), path);
}

void Session::open_sample() {
  auto image = std::make_shared<const Image>(load_image_from_memory(embedded::sample_png(), kSampleName));
  set_input(std::move(image), kSampleName, {});
}

void Session::open_image_async(const std::filesystem::path& path) {
  worker_->submit("load", "Loading " + path.filename().string(), [this, path](Worker::Context& ctx) {
    try {
      // Large PNGs report rows as they decode, and stop at Cancel (or when the app closes).
      const LoadProgress progress = [&ctx](double fraction) {
        ctx.set_progress(fraction, fmt::format("{:.0f}% decoded", fraction * 100));
        return !ctx.cancelled();
      };
      auto image = std::make_shared<const Image>(load_image(path, {}, progress));
      if (ctx.cancelled()) return;
      ctx.post([this, image, path] {
        try {
          set_input(image, path.string(), path);
          notify(Notice::Level::Info, Notice::Source::Load, "opened " + path.string());
        } catch (const Error& e) {
          notify(Notice::Level::Error, Notice::Source::Load, e.full_message());
        }
      });
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Cancelled) {  // the image shown stays; the window's "Loading" line ends
        ctx.post([this, path] {
          notify(Notice::Level::Cancelled, Notice::Source::Load, "loading " + path.string() + " was cancelled");
        });
        return;
      }
      ctx.post([this, e] { notify(Notice::Level::Error, Notice::Source::Load, e.full_message()); });
    }
  });
}

void Session::set_input(std::shared_ptr<const Image> file_image, std::string name, std::filesystem::path path) {
  auto previous = std::move(file_image_);
  auto previous_input = input_;
  file_image_ = std::move(file_image);
  try {
    prepare_input();
  } catch (...) {
    file_image_ = std::move(previous);
    input_ = std::move(previous_input);
    throw;
  }
  input_name_ = std::move(name);
  input_path_ = std::move(path);
  loaded_shape_ = file_image_->shape();
}

void Session::prepare_input() {
  input_ = prepare_stencil_input(file_image_, type_choice_);  // file_image_ itself when the kernels take it as is
  ++input_generation_;
  lab_->set_image(file_image_);  // kmeans runs on the image as loaded
  // The shown result belongs to the previous input; a new one follows.
  output_.reset();
  output_device_ = {};
  last_report_.reset();
  cpu_reference_.reset();
  sweep_.reset();
  worker_->drop_waiting("run");
  worker_->drop_waiting("cpu-reference");
  refresh_launch_info();
  request_run();
}

void Session::set_element_type(ElemType type) {
  if (type != ElemType::U8 && type != ElemType::F32)
    throw_usage(fmt::format("kernels run on u8 or f32 images, not {}", to_string(type)), "choose u8 or f32");
  type_choice_ = type;
  if (file_image_) prepare_input();
}

ElemType Session::element_type() const noexcept {
  if (input_) return input_->type();
  return type_choice_.value_or(ElemType::U8);
}

// ---- request ----

void Session::select_kernel(const std::string& id) {
  const KernelSpec& spec = KernelRegistry::builtin().get(id);
  if (!can_run(spec))
    throw_usage(fmt::format("the app runs image stencils, simulations and lab kernels, and '{}' is a {} kernel",
                            spec.id, spec.category),
                "run it with kernelscope-cli");
  kernel_ = &spec;
  params_ = spec.default_params();
  if (!variant_.empty() && !spec.find_variant(variant_)) variant_.clear();
  if (simulating()) enter_simulation();
  else simulation_->deactivate();
  if (in_lab()) enter_lab();
  sweep_.reset();
  refresh_launch_info();
  request_run();
}

void Session::set_param(const std::string& name, const std::string& text) {
  if (in_lab()) {  // the lab checks the whole request (kmeans' k against the image, ...)
    lab_->set_param(name, text);
    params_ = lab_->request().params;
    return;
  }
  ParamSet next = params_;
  next.set(name, text);  // throws before anything changes
  if (simulating()) check_simulation_params(kernel_->id, next);  // dt beyond the stability limit, ...
  params_ = std::move(next);
  refresh_launch_info();
  request_run();
}

void Session::reset_params() {
  if (in_lab()) lab_->set_params(kernel_->default_params());
  params_ = kernel_->default_params();
  refresh_launch_info();
  request_run();
}

void Session::set_backend(Backend backend) {
  if (backend == Backend::Cuda && !device_.cuda)
    throw Error(ErrorKind::Device, "the CUDA backend is not available: " + device_.unavailable_reason,
                "the CPU backend runs every kernel");
  if (backend == backend_) return;
  if (in_lab()) lab_->set_backend(backend);
  backend_ = backend;
  variant_.clear();
  sweep_.reset();
  refresh_launch_info();
  request_run();
}

std::string Session::effective_variant() const {
  if (in_lab()) return lab_->effective_variant();
  if (!variant_.empty()) return variant_;
  if (simulating()) return Simulation::default_variant(*kernel_, backend_);
  return backend_ == Backend::Cpu ? "cpu" : Engine::default_cuda_variant(*kernel_, params_);
}

void Session::set_variant(const std::string& name) {
  const VariantSpec* v = kernel_->find_variant(name);
  if (!v) {
    std::string known;
    for (const auto& x : kernel_->variants) known += (known.empty() ? "" : ", ") + x.name;
    throw_usage(fmt::format("kernel '{}' has no variant '{}'", kernel_->id, name), "its variants are: " + known);
  }
  if (in_lab()) {
    lab_->set_variant(name);  // switches the lab's backend along with it
    backend_ = lab_->request().backend;
    variant_ = name;
    return;
  }
  if (v->backend != backend_) set_backend(v->backend);  // throws when that backend is unavailable
  variant_ = name;
  sweep_.reset();
  refresh_launch_info();
  request_run();
}

void Session::set_block(std::optional<BlockShape> block) {
  if (in_lab()) {
    lab_->set_block(block);
    block_ = block;
    return;
  }
  if (block) {
    if (block->x < 1 || block->y < 1)
      throw_usage(fmt::format("block {} has no threads", to_string(*block)), "both sides must be at least 1");
    if (device_.cuda && backend_ == Backend::Cuda && input_ && !simulating()) {
      // The kernel's own limits (registers, shared memory) as well as the GPU's: a usage Error names the one
      // the block breaks, and the previous block stays.
      cuda::stencil_occupancy(engine_->cuda(), make_stencil_plan(kernel_->id, params_), effective_variant(),
                              input_->type(), input_->channels(), *block);
    }
  }
  block_ = block;
  refresh_launch_info();
  request_run();
}

void Session::refresh_launch_info() {
  launch_info_ = {};
  if (in_lab()) {
    launch_info_.problem = "lab kernels: the Lab section shows each run's launch arithmetic and occupancy";
    return;
  }
  if (simulating() && backend_ == Backend::Cuda) return sync_simulation_launch_info();
  if (backend_ == Backend::Cpu) {
    launch_info_.problem = device_.cuda ? "the CPU backend runs without CUDA blocks"
                                        : "CPU backend in use: " + device_.unavailable_reason;
    return;
  }
  if (!input_) {
    launch_info_.problem = "no image loaded";
    return;
  }
  try {
    const std::string variant = effective_variant();
    if (auto why = kernel_->unavailable_reason(variant, params_)) {
      launch_info_.problem = *why;
      return;
    }
    launch_info_.occupancy =
        cuda::stencil_occupancy(engine_->cuda(), make_stencil_plan(kernel_->id, params_), variant, input_->type(),
                                input_->channels(), effective_block());
  } catch (const Error& e) {
    launch_info_.problem = e.full_message();
  }
}

BlockShape Session::suggest_block() {
  if (simulating() || in_lab()) throw_usage("Suggest works for image stencils", "pick the block by hand");
  if (backend_ != Backend::Cuda)
    throw_usage("block shapes apply to the CUDA backend", "switch the backend to CUDA first");
  if (!input_) throw_usage("no image is loaded", "open an image first");
  return cuda::suggest_block(engine_->cuda(), make_stencil_plan(kernel_->id, params_), effective_variant(),
                             input_->type(), input_->channels());
}

StencilRequest Session::request() const {
  StencilRequest r;
  r.kernel = kernel_->id;
  r.params = params_;
  r.backend = backend_;
  r.variant = variant_;
  if (backend_ == Backend::Cuda) {
    r.block = block_;
    r.keep_on_device = true;  // for the display (interop)
    r.download = options_.download_cuda_results;
  }
  r.warmup = options_.warmup;
  r.repeat = options_.repeat;
  return r;
}

}  // namespace ks::app
