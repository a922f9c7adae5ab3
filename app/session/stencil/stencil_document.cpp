// The stencil document's input and request, and what the launch of that request looks like on this GPU. Runs,
// the CPU reference and the sweep are in stencil_document_runs.cpp, exports in stencil_exports.cpp.
#include "session/stencil/stencil_document.hpp"

#include <fmt/format.h>

#include <cmath>

#include "assets.hpp"
#include "io/image_io.hpp"
#include "stencil/cuda/stencil_cuda.hpp"
#include "stencil/stencil_plan.hpp"

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

StencilDocument::StencilDocument(Engine& engine, Worker& worker, DeviceStatus& device,
                                 DisplayGenerations& generations, Options options, Hooks hooks)
    : engine_(engine),
      worker_(worker),
      device_(device),
      generations_(generations),
      options_(std::move(options)),
      hooks_(std::move(hooks)),
      history_(options_.history_limit) {}

void StencilDocument::notify(Notice::Level level, Notice::Source source, std::string text) const {
  hooks_.notify(level, source, std::move(text));
}

double StencilDocument::seconds_since_start() const {
  return std::chrono::duration<double>(Clock::now() - options_.started).count();
}

// ---- input ----

void StencilDocument::open_image(const std::filesystem::path& path) {
  auto image = std::make_shared<const Image>(load_image(path));
  set_input(std::move(image), path.string(), path);
}

void StencilDocument::open_sample() {
  auto image = std::make_shared<const Image>(load_image_from_memory(embedded::sample_png(), kSampleName));
  set_input(std::move(image), kSampleName, {});
}

void StencilDocument::open_image_async(const std::filesystem::path& path) {
  worker_.submit("load", "Loading " + path.filename().string(), [this, path](Worker::Context& ctx) {
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

void StencilDocument::set_input(std::shared_ptr<const Image> file_image, std::string name,
                                std::filesystem::path path) {
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

void StencilDocument::prepare_input() {
  input_ = prepare_stencil_input(file_image_, type_choice_);  // file_image_ itself when the kernels take it as is
  ++generations_.input;
  // The shown result belongs to the previous input; a new one follows.
  output_.reset();
  output_device_ = {};
  last_report_.reset();
  cpu_reference_.reset();
  sweep_.reset();
  worker_.drop_waiting("run");
  worker_.supersede("cpu-reference");
  hooks_.input_changed();
}

void StencilDocument::set_element_type(ElemType type) {
  if (type != ElemType::U8 && type != ElemType::F32)
    throw_usage(fmt::format("kernels run on u8 or f32 images, not {}", to_string(type)), "choose u8 or f32");
  type_choice_ = type;
  if (file_image_) prepare_input();
}

ElemType StencilDocument::element_type() const noexcept {
  if (input_) return input_->type();
  return type_choice_.value_or(ElemType::U8);
}

// ---- request ----

std::string StencilDocument::effective_variant() const {
  if (!choice_.variant.empty()) return choice_.variant;
  return choice_.backend == Backend::Cpu ? "cpu" : Engine::default_cuda_variant(*choice_.kernel, choice_.params);
}

void StencilDocument::check_block(const BlockShape& block) const {
  if (!device_.cuda || choice_.backend != Backend::Cuda || !input_) return;
  // The kernel's own limits (registers, shared memory) as well as the GPU's.
  cuda::stencil_occupancy(engine_.cuda(), make_stencil_plan(choice_.kernel->id, choice_.params), effective_variant(),
                          input_->type(), input_->channels(), block);
}

LaunchInfo StencilDocument::launch_info() const {
  LaunchInfo info;
  if (choice_.backend == Backend::Cpu) {
    info.problem = device_.cuda ? "the CPU backend runs without CUDA blocks"
                                : "CPU backend in use: " + device_.unavailable_reason;
    return info;
  }
  if (!input_) {
    info.problem = "no image loaded";
    return info;
  }
  if (user_) {  // from the compiler's facts (or the driver's) at the block of the last run
    if (last_report_ && last_report_->variant == "yours" && last_report_->occupancy)
      info.occupancy = last_report_->occupancy;
    else
      info.problem = "your kernel's occupancy shows after its first run";
    return info;
  }
  try {
    const std::string variant = effective_variant();
    if (auto why = choice_.kernel->unavailable_reason(variant, choice_.params)) {
      info.problem = *why;
      return info;
    }
    info.occupancy = cuda::stencil_occupancy(engine_.cuda(), make_stencil_plan(choice_.kernel->id, choice_.params), variant,
                                             input_->type(), input_->channels(), choice_.block.value_or(BlockShape{}));
  } catch (const Error& e) {
    info.problem = e.full_message();
  }
  return info;
}

BlockShape StencilDocument::suggest_block() const {
  if (choice_.backend != Backend::Cuda)
    throw_usage("block shapes apply to the CUDA backend", "switch the backend to CUDA first");
  if (!input_) throw_usage("no image is loaded", "open an image first");
  return cuda::suggest_block(engine_.cuda(), make_stencil_plan(choice_.kernel->id, choice_.params), effective_variant(),
                             input_->type(), input_->channels());
}

void StencilDocument::set_counters(bool on) {
  if (on == counters_) return;
  counters_ = on;
  if (on) request_run();
}

StencilRequest StencilDocument::request() const {
  StencilRequest r;
  r.kernel = choice_.kernel->id;
  r.params = choice_.params;
  r.backend = choice_.backend;
  r.variant = choice_.variant;
  if (choice_.backend == Backend::Cuda) {
    r.block = choice_.block;
    r.keep_on_device = true;  // for the display (interop)
    r.download = options_.download_cuda_results;
    r.counters = counters_;
  }
  r.warmup = options_.warmup;
  r.repeat = options_.repeat;
  return r;
}

}  // namespace ks::app
