// The Lab document's request and its checks. Runs and the size sweep are in lab_document_runs.cpp.
#include "session/lab/lab_document.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "engine/engine.hpp"

namespace ks::app {

std::string lab_request_key(const lab::LabRequest& r, const std::string& effective_variant,
                            const lab::LabSize& effective_size) {
  std::string key = fmt::format("{}|{}|{}|{}", r.kernel, to_string(r.backend), effective_variant,
                                lab::to_string(effective_size));
  for (const auto& [name, value] : r.params.as_text()) key += "|" + name + "=" + value;
  if (r.backend == Backend::Cuda)
    key += fmt::format("|block={}|host={}|streams={}", r.block ? to_string(*r.block) : std::string("default"),
                       lab::to_string(r.host), r.streams);
  return key;
}

std::vector<lab::LabSize> lab_sweep_sizes(const lab::LabInfo& info, const lab::LabSize& largest) {
  if (info.form == lab::SizeForm::Image)
    throw_usage(
        fmt::format("{} runs on the loaded image, so its size is the image's: there are no sizes to sweep",
                    info.id),
        "open images of other sizes to compare their times");
  std::vector<lab::LabSize> sizes;
  lab::LabSize s = largest;
  const int rank = s.rank();
  const std::int64_t floor = info.form == lab::SizeForm::Elements ? 1024 : 16;
  for (;;) {
    sizes.push_back(s);
    bool can_halve = true;
    for (int d = 0; d < rank; ++d)
      can_halve = can_halve && s.dims[std::size_t(d)] / 2 >= std::max(floor, info.limits.min[std::size_t(d)]);
    if (!can_halve) break;
    for (int d = 0; d < rank; ++d) s.dims[std::size_t(d)] /= 2;
  }
  std::reverse(sizes.begin(), sizes.end());
  return sizes;
}

LabDocument::LabDocument(Engine& engine, Worker& worker, Options options, Hooks hooks)
    : engine_(engine), worker_(worker), options_(std::move(options)), hooks_(std::move(hooks)) {}

const KernelSpec& LabDocument::spec() const {
  if (!spec_)
    throw_usage("no lab kernel is selected", "choose vecadd, saxpy, reduce, ... in the Kernel section");
  return *spec_;
}

const lab::LabInfo& LabDocument::info() const {
  return spec().lab->info();
}

void LabDocument::select(const KernelSpec& spec, Backend backend) {
  if (!spec.lab)
    throw_usage(fmt::format("'{}' is a {} kernel, not a lab kernel", spec.id, spec.category),
                "choose one of the lab kernels (category lab)");
  lab::LabRequest r;
  r.kernel = spec.id;
  r.params = spec.default_params();
  r.backend = backend;
  r.warmup = options_.warmup;
  r.repeat = options_.repeat;
  spec_ = &spec;
  request_ = std::move(r);
  last_error_.reset();
  // The check of a user's kernel was against the previous kernel's reference.
  user_reference_ = "cpu";
  user_check_.reset();
  user_output_.reset();
  reference_output_.reset();
  // The shown report is the kernel's latest kept run (runs_ keeps every kernel's, for the Roofline).
  last_run_.reset();
  for (const LabRun& run : runs_)
    if (run.report.kernel == spec.id) last_run_ = run;
  if (sweep_ && !sweep_->running) sweep_.reset();
  if (result_image_) {  // the image belongs to the previous kernel
    result_image_.reset();
    result_generation_ =
        hooks_.next_frame_generation ? hooks_.next_frame_generation() : result_generation_ + 1;
  }
}

lab::LabSize LabDocument::effective_size() const {
  if (takes_image() && image_) return lab::LabSize::image(image_->width(), image_->height());
  return request_.size ? *request_.size : info().default_size;
}

std::string LabDocument::effective_variant() const {
  if (!request_.variant.empty()) return request_.variant;
  return lab::default_lab_variant(*spec().lab, request_.backend);
}

lab::LabRequest LabDocument::with_image(lab::LabRequest request) const {
  if (takes_image() && image_) request.image = *image_;
  return request;
}

void LabDocument::change(const std::function<void(lab::LabRequest&)>& edit) {
  spec();  // a usage Error without a kernel
  lab::LabRequest next = request_;
  edit(next);
  // Checked as run_lab would check it, without the device (block against the GPU, device memory): those are
  // checked when the run starts, and a refusal then shows as the run's error.
  lab::check_lab_request(engine_, with_image(next), false);
  request_ = std::move(next);
}

void LabDocument::set_counters(bool on) {
  change([&](lab::LabRequest& r) { r.counters = on; });
}

void LabDocument::set_size(const lab::LabSize& size) {
  if (takes_image())
    throw_usage(fmt::format("{} runs on the loaded image ({}); its size is the image's", spec().id,
                            lab::to_string(effective_size())),
                "open another image (File > Open image)");
  change([&](lab::LabRequest& r) { r.size = size; });
}

void LabDocument::set_size_text(const std::string& text) {
  set_size(lab::parse_lab_size(text, info().form, spec().id));
}

void LabDocument::set_param(const std::string& name, const std::string& text) {
  change([&](lab::LabRequest& r) { r.params.set(name, text); });
}

void LabDocument::set_params(const ParamSet& params) {
  change([&](lab::LabRequest& r) { r.params = params; });
}

void LabDocument::set_backend(Backend backend) {
  if (backend == Backend::Cuda && !options_.cuda)
    throw Error(ErrorKind::Device, "the CUDA backend is not available: " + options_.cuda_unavailable,
                "the CPU backend runs every lab kernel's cpu variant");
  if (active() && backend == request_.backend) return;
  if (!active()) return;
  // What only the CUDA backend takes goes back to its default: the CPU takes pageable memory, one stream and
  // no block, and the CUDA backend starts from its default variant.
  change([&](lab::LabRequest& r) {
    r.backend = backend;
    r.variant.clear();
    r.block.reset();
    r.host = lab::HostMode::Pageable;
    r.streams = 1;
    r.chunks = 0;
  });
}

void LabDocument::set_variant(const std::string& name) {
  change([&](lab::LabRequest& r) {
    if (const VariantSpec* v = spec().find_variant(name); v && v->backend != r.backend) {
      if (v->backend == Backend::Cuda && !options_.cuda)
        throw Error(ErrorKind::Device,
                    "variant " + name + " runs on CUDA, which is not available: " + options_.cuda_unavailable,
                    "choose a CPU variant");
      r.backend = v->backend;
      r.block.reset();
      r.host = lab::HostMode::Pageable;
      r.streams = 1;
    }
    r.variant = name;
  });
}

void LabDocument::set_block(std::optional<BlockShape> block) {
  if (block && request_.backend != Backend::Cuda)
    throw_usage("a block shape applies to the CUDA backend", "switch the backend to CUDA first");
  if (block && (block->x < 1 || block->y < 1))
    throw_usage(fmt::format("block {} has no threads", to_string(*block)), "both sides must be at least 1");
  if (block && info().block_rank == 1 && block->y != 1)
    throw_usage(fmt::format("{} takes a thread count (a 1-D block), not {}", spec().id, to_string(*block)),
                "give e.g. 256");
  change([&](lab::LabRequest& r) { r.block = block; });
}

void LabDocument::set_host(lab::HostMode mode) {
  if (mode != lab::HostMode::Pageable && request_.backend != Backend::Cuda)
    throw_usage(
        fmt::format("host memory '{}' applies to the CUDA backend: the CPU backend's arrays are ordinary "
                    "(pageable) memory",
                    lab::to_string(mode)),
        "switch the backend to CUDA first");
  change([&](lab::LabRequest& r) { r.host = mode; });
}

void LabDocument::set_streams(int streams) {
  change([&](lab::LabRequest& r) {
    r.streams = streams;
    r.chunks = 0;
  });
}

void LabDocument::set_image(std::shared_ptr<const Image> image) {
  const bool changed = image != image_;
  image_ = std::move(image);
  if (changed && result_image_) {
    result_image_.reset();
    result_generation_ =
        hooks_.next_frame_generation ? hooks_.next_frame_generation() : result_generation_ + 1;
  }
}

std::string LabDocument::current_key() const {
  if (!user_) return lab_request_key(request_, effective_variant(), effective_size());
  // A user kernel's runs: one kept per file, size, parameters and block (an edit replaces the file's run).
  std::string key = lab_request_key(request_, "yours:" + user_->file_name, effective_size());
  key += fmt::format("|user-block={}", request_.block ? request_.block->x : 0);
  for (double v : user_->params) key += fmt::format("|{}", v);
  return key;
}

const LabRun* LabDocument::run_for_request() const {
  if (!active()) return nullptr;
  const std::string key = current_key();
  for (auto it = runs_.rbegin(); it != runs_.rend(); ++it)
    if (it->key == key) return &*it;
  return nullptr;
}

bool LabDocument::last_run_is_current() const {
  return last_run_ && active() &&
         last_run_->key == current_key();
}

}  // namespace ks::app
