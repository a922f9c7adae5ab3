#include "lab/lab.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/cuda_context.hpp"
#include "core/host_memory.hpp"
#include "core/runtime.hpp"
#include "core/thread_pool.hpp"
#include "lab/lab_cuda.hpp"
#include "lab/lab_memory.hpp"
#include "registry/registry.hpp"

namespace ks::lab {

void check_chunk_count(int chunks) {
  if (chunks < 1)
    throw_usage(fmt::format("--chunks {} is not possible: the work is cut into at least one chunk", chunks),
                "--chunks only applies with --streams K > 1 (default 4 chunks per stream): drop it, or give e.g. "
                "--streams 4 --chunks 16");
}

namespace {

// Everything run_lab needs, resolved and checked.
struct Plan {
  const LabKernel* kernel = nullptr;
  std::string variant;
  LabSize size;
  BlockShape block;
  int chunks = 1;
  std::vector<ArraySpec> arrays;
};

const VariantSpec& resolve_variant(const LabKernel& kernel, const LabRequest& req, std::string& name) {
  const LabInfo& info = kernel.info();
  name = req.variant.empty() ? default_lab_variant(kernel, req.backend) : req.variant;
  const auto it = std::find_if(info.variants.begin(), info.variants.end(),
                               [&](const VariantSpec& v) { return v.name == name; });
  if (it == info.variants.end()) {
    std::string known;
    for (const auto& v : info.variants) known += (known.empty() ? "" : ", ") + v.name;
    throw_usage(fmt::format("{} has no variant '{}'", info.id, name), "its variants: " + known);
  }
  if (it->backend != req.backend)
    throw_usage(fmt::format("variant '{}' of {} runs on the {} backend, not {}", name, info.id,
                            to_string(it->backend), to_string(req.backend)),
                fmt::format("use --backend {} with it, or drop --variant", to_string(it->backend)));
  return *it;
}

LabSize resolve_size(const LabKernel& kernel, const LabRequest& req) {
  const LabInfo& info = kernel.info();
  if (info.form == SizeForm::Image) {
    if (!req.image || req.image->empty())
      throw_usage(fmt::format("{} works on an image and none was given", info.id), "give -i IMAGE");
    const LabSize s = LabSize::image(req.image->width(), req.image->height());
    if (req.size && !(*req.size == s))
      throw_usage(fmt::format("{} takes the image's size ({}), not --size {}", info.id, to_string(s),
                              to_string(*req.size)),
                  "drop --size");
    return s;
  }
  if (req.image) throw_usage(fmt::format("{} takes no image", info.id), "drop -i; give --size instead");
  return req.size ? *req.size : info.default_size;
}

void check_streams(const LabKernel& kernel, const LabRequest& req, const LabSize& size, int& chunks) {
  const LabInfo& info = kernel.info();
  if (req.streams < 1)
    throw_usage(fmt::format("--streams {} is not possible: at least one stream runs the work", req.streams),
                "use --streams 1 (serial) or more, e.g. --streams 4");
  if (req.chunks != 0) check_chunk_count(req.chunks);
  if (req.streams == 1) {
    if (req.chunks > 1)
      throw_usage(fmt::format("--chunks {} needs --streams K > 1", req.chunks),
                  "chunks exist to overlap copies and kernels in several streams: add --streams 4");
    chunks = 1;
    return;
  }
  if (!info.splits)
    throw_usage(fmt::format("{} cannot split its work into independent chunks, so --streams {} cannot apply",
                            info.id, req.streams),
                "drop --streams (streams apply to vecadd, saxpy and reduce)");
  if (req.backend != Backend::Cuda)
    throw_usage("--streams applies to the CUDA backend (copies overlapping kernels)", "add --backend cuda");
  if (!has_copies(req.host))
    throw_usage(fmt::format("--streams with --host {}: there are no copies to overlap with the kernels",
                            to_string(req.host)),
                "use --host pinned (or pageable, managed-prefetch) with --streams");
  if (req.streams > 64) throw_usage(fmt::format("--streams {} is more than 64", req.streams), "use 2 .. 16");
  chunks = req.chunks > 0 ? req.chunks : 4 * req.streams;
  if (chunks < req.streams)
    throw_usage(fmt::format("--chunks {} is fewer than --streams {}", chunks, req.streams),
                "give each stream at least one chunk");
  if (chunks > size.n())
    throw_usage(fmt::format("{} chunks of {} elements: a chunk would be empty", chunks, size.n()),
                "use fewer --chunks or a larger --size");
  if (chunks > 4096) throw_usage(fmt::format("--chunks {} is more than 4096", chunks), "use e.g. 16");
}

void check_user_inputs(const LabKernel& kernel, const LabRequest& req, const std::vector<ArraySpec>& arrays) {
  std::string inputs, all;
  for (const auto& a : arrays) {
    all += (all.empty() ? "" : ", ") + a.name;
    if (a.is_input()) inputs += (inputs.empty() ? "" : ", ") + a.name;
  }
  for (const NdArray& given : req.inputs) {
    const auto it = std::find_if(arrays.begin(), arrays.end(), [&](const ArraySpec& a) { return a.name == given.name; });
    if (it == arrays.end() || !it->is_input())
      throw_usage(fmt::format("{} has no input array '{}'", kernel.info().id, given.name),
                  inputs.empty() ? "it takes no input arrays" : "its input arrays: " + inputs);
    if (given.type != it->type || given.shape != it->shape)
      throw_usage(fmt::format("array '{}' of {} is {} of shape {} at this size, the file holds {} of shape {}",
                              given.name, kernel.info().id, to_string(it->type), shape_text(it->shape),
                              to_string(given.type), shape_text(given.shape)),
                  "write the file with that type and shape (numpy: a.astype(...).reshape(...)), or change --size");
  }
  for (const auto& name : req.keep)
    if (std::none_of(arrays.begin(), arrays.end(), [&](const ArraySpec& a) { return a.name == name; }))
      throw_usage(fmt::format("{} has no array '{}'", kernel.info().id, name), "its arrays: " + all);
}

Plan plan_request(const LabRequest& req) {
  Plan p;
  p.kernel = &find_lab_kernel(req.kernel);
  const LabKernel& k = *p.kernel;
  const LabInfo& info = k.info();
  if (req.repeat < 1) throw_usage(fmt::format("--repeat {} must be at least 1", req.repeat));
  if (req.warmup < 0) throw_usage(fmt::format("--warmup {} must not be negative", req.warmup));
  p.size = resolve_size(k, req);
  check_size(p.size, info.form, info.limits, info.id);
  resolve_variant(k, req, p.variant);
  if (req.backend == Backend::Cpu) {
    if (req.block) throw_usage("a block shape applies to the CUDA backend only", "drop --block, or add --backend cuda");
    if (req.host != HostMode::Pageable)
      throw_usage(fmt::format("--host {} applies to the CUDA backend only (the CPU works in pageable memory)",
                              to_string(req.host)),
                  "drop --host, or add --backend cuda");
  } else {
    p.block = req.block ? *req.block : info.default_block;
    if (info.block_rank == 1 && p.block.y != 1)
      throw_usage(fmt::format("{} takes a 1-D block, not {}", info.id, to_string(p.block)),
                  fmt::format("write e.g. --block {}", info.default_block.x));
  }
  check_streams(k, req, p.size, p.chunks);
  k.check(p.size, req.params, p.variant);
  p.arrays = k.arrays(p.size, req.params);
  check_user_inputs(k, req, p.arrays);
  return p;
}

CudaSetup setup_for(const Plan& p, const LabRequest& req, const DeviceInfo& device) {
  CudaSetup s;
  s.variant = p.variant;
  s.size = p.size;
  s.params = &req.params;
  s.block = p.block;
  s.device = &device;
  return s;
}

// The memory a plan takes, against what is free; usage Errors that say how much and what to do.
void check_memory(const Plan& p, const LabRequest& req, const LabCudaRun* run, CudaContext* cuda) {
  const MemoryNeed need = memory_need(p.arrays, req.backend, req.host, req.check && (req.backend == Backend::Cuda ||
                                                                                  p.variant != "cpu"),
                                      req.streams, p.chunks, p.size, run);
  const std::string what = fmt::format("{} {} {}", p.kernel->info().id, to_string(p.kernel->info().form),
                                       to_string(p.size));
  require_memory(what, need.host_bytes, available_host_memory(), "host", need.host_detail, "",
                 "use a smaller --size" + std::string(req.check ? ", or --no-check (no CPU reference)" : ""));
  if (cuda)
    require_memory(what, need.device_bytes, device_free_memory(*cuda), "device", need.device_detail,
                   " on " + cuda->device().name,
                   req.host == HostMode::Mapped ? "use a smaller --size"
                                                : "use a smaller --size, or --host mapped (no device copies)");
}

// Host arrays owned by the run (pageable), for the roles asked; other views stay null.
class OwnedArrays {
 public:
  OwnedArrays(const std::vector<ArraySpec>& specs, bool inputs, bool outputs) {
    views.resize(specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
      views[i].spec = &specs[i];
      views[i].count = specs[i].count();
      const bool want = (inputs && specs[i].is_input()) || (outputs && specs[i].is_output());
      if (!want || specs[i].bytes() == 0) continue;
      buffers_.push_back(allocate_host(specs[i].bytes(), specs[i].name));
      views[i].data = buffers_.back().get();
    }
  }
  ArrayViews views;

 private:
  std::vector<HostBytes> buffers_;
};

// The arrays a CPU run works on: its own outputs and InOut arrays, the inputs borrowed from `sources`.
ArrayViews working_views(const ArrayViews& own, const ArrayViews& sources) {
  ArrayViews v = own;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i].spec->role == ArrayRole::Input) v[i].data = sources[i].data;
  return v;
}

// InOut arrays back to their inputs before a run changes them in place.
void restore_inout(const ArrayViews& views, const ArrayViews& sources) {
  for (std::size_t i = 0; i < views.size(); ++i)
    if (views[i].spec->role == ArrayRole::InOut && views[i].bytes())
      std::memcpy(views[i].data, sources[i].data, views[i].bytes());
}

void fill_inputs(const Plan& p, const LabRequest& req, const ArrayViews& sources, ThreadPool& pool) {
  FillContext ctx;
  ctx.size = p.size;
  ctx.params = &req.params;
  ctx.seed = req.seed;
  std::optional<Image> f32;
  if (req.image) f32 = req.image->type() == ElemType::F32 ? *req.image : convert_type(*req.image, ElemType::F32);
  ctx.image = f32 ? &*f32 : nullptr;
  ctx.pool = &pool;
  p.kernel->fill(sources, ctx);
  for (const NdArray& given : req.inputs)
    for (const ArrayView& v : sources)
      if (v.spec->name == given.name) std::memcpy(v.data, given.data.data(), v.bytes());
}

double run_cpu_once(const Plan& p, const LabRequest& req, const std::string& variant, const ArrayViews& views,
                    const ArrayViews& sources, ThreadPool& pool, const LabRunControl& control) {
  restore_inout(views, sources);
  CpuRun run;
  run.variant = variant;
  run.arrays = &views;
  run.size = p.size;
  run.params = &req.params;
  run.pool = &pool;
  run.control = &control;
  Stopwatch watch;
  p.kernel->run_cpu(run);
  return watch.elapsed_ms();
}

std::vector<NdArray> kept_arrays(const LabRequest& req, const ArrayViews& views) {
  std::vector<NdArray> out;
  for (const auto& name : req.keep)
    for (const ArrayView& v : views)
      if (v.spec->name == name) {
        NdArray a;
        a.name = name;
        a.type = v.spec->type;
        a.shape = v.spec->shape;
        a.data.resize(v.bytes());
        if (v.bytes()) std::memcpy(a.data.data(), v.data, v.bytes());
        out.push_back(std::move(a));
      }
  return out;
}

void add_mode_notes(const LabRequest& req, LabReport& r) {
  if (req.backend != Backend::Cuda) return;
  switch (req.host) {
    case HostMode::Pageable:
      if (req.streams > 1)
        r.notes.push_back(
            "pageable memory: the driver copies through a staging buffer of its own, so copies cannot overlap "
            "kernels; --host pinned shows what streams can hide");
      break;
    case HostMode::Mapped:
      r.notes.push_back("mapped (zero-copy): no copies; the kernel reads and writes host memory over PCIe, so its "
                        "time includes the transfers");
      break;
    case HostMode::Managed:
      r.notes.push_back("managed: every repeat starts with the pages on the host; they migrate on demand (page "
                        "faults) during the kernel, whose time includes that; the download is a prefetch to the host");
      break;
    case HostMode::ManagedPrefetch:
      r.notes.push_back("managed-prefetch: the upload is cudaMemPrefetchAsync to the device, the download one "
                        "back to the host");
      break;
    case HostMode::Pinned:
      break;
  }
}

}  // namespace

const LabKernel& find_lab_kernel(const std::string& id) {
  const KernelSpec& spec = KernelRegistry::builtin().get(id);
  if (!spec.lab)
    throw_usage(fmt::format("'{}' is a {} kernel, not a lab kernel", spec.id, spec.category),
                "lab kernels are listed under \"lab kernels\" by `kernelscope-cli list`");
  return *spec.lab;
}

std::string default_lab_variant(const LabKernel& kernel, Backend backend) {
  if (backend == Backend::Cpu) return "cpu";
  const auto& variants = kernel.info().variants;
  for (auto it = variants.rbegin(); it != variants.rend(); ++it)
    if (it->backend == Backend::Cuda) return it->name;
  throw_usage(fmt::format("{} has no CUDA variant", kernel.info().id), "use --backend cpu");
}

void check_lab_request(Runtime& runtime, const LabRequest& req, bool with_device) {
  const Plan p = plan_request(req);
  if (req.backend == Backend::Cuda && !with_device) return;
  if (req.backend == Backend::Cuda) {
    CudaContext& cuda = runtime.cuda();
    const auto run = p.kernel->make_cuda_run(setup_for(p, req, cuda.device()));
    check_memory(p, req, run.get(), &cuda);
  } else {
    check_memory(p, req, nullptr, nullptr);
  }
}

LabResult run_lab(Runtime& runtime, const LabRequest& req, const LabRunControl& control) {
  const Plan p = plan_request(req);
  const LabKernel& k = *p.kernel;
  CudaContext* cuda = req.backend == Backend::Cuda ? &runtime.cuda() : nullptr;
  std::unique_ptr<LabCudaRun> cuda_run;
  if (cuda) cuda_run = k.make_cuda_run(setup_for(p, req, cuda->device()));
  check_memory(p, req, cuda_run.get(), cuda);
  // The backend's roof, measured once per runtime: before the run's arrays take memory.
  const ComputePeaks& peaks = runtime.peaks(req.backend);
  ThreadPool& pool = runtime.pool();

  LabResult result;
  LabReport& r = result.report;
  r.kernel = k.info().id;
  r.variant = p.variant;
  r.backend = req.backend;
  r.size = p.size;
  r.params = req.params.as_text();
  r.host = req.host;
  r.streams = req.streams;
  r.chunks = p.chunks;
  r.seed = req.seed;
  r.warmup = req.warmup;
  r.cost = k.cost(p.size, req.params);
  r.operation_kind = k.info().operations;

  control.report(0, "filling the inputs");
  OwnedArrays sources(p.arrays, true, false);
  fill_inputs(p, req, sources.views, pool);
  throw_if_cancelled(control);

  // The CPU reference, once: the truth of the check (a CUDA run, or another CPU variant).
  const bool reference = req.check && (cuda || p.variant != "cpu");
  std::optional<OwnedArrays> ref;
  if (reference) {
    control.report(0, "CPU reference");
    ref.emplace(p.arrays, false, true);
    ref->views = working_views(ref->views, sources.views);
    r.cpu_reference_ms = run_cpu_once(p, req, "cpu", ref->views, sources.views, pool, control);
    throw_if_cancelled(control);
  }

  ArrayViews run_views;
  std::optional<OwnedArrays> cpu_own;
  CudaOutcome outcome;
  if (!cuda) {
    r.device = fmt::format("CPU ({} thread{})", pool.size(), pool.size() == 1 ? "" : "s");
    cpu_own.emplace(p.arrays, false, true);
    run_views = working_views(cpu_own->views, sources.views);
    std::vector<double> samples;
    for (int i = 0; i < req.warmup + req.repeat; ++i) {
      control.report(double(i) / (req.warmup + req.repeat), i < req.warmup ? "warm-up" : "timed runs");
      const double ms = run_cpu_once(p, req, p.variant, run_views, sources.views, pool, control);
      if (i == 0 && req.warmup > 0) r.first_launch_ms = ms;
      if (i >= req.warmup) samples.push_back(ms);
      throw_if_cancelled(control);
    }
    r.kernel_time = TimingStats::of(samples);
    r.end_to_end_time = r.kernel_time;
    if (p.variant == "cpu" && !r.cpu_reference_ms) r.cpu_reference_ms = r.kernel_time.median_ms;
    if (req.counters) r.counters_unavailable = counters_on_cpu_message("this run");
  } else {
    r.device = cuda->device().name;
    r.block = p.block;
    r.copy_bandwidth_gbps = cuda->copy_bandwidth_gbps();
    if (auto g = cuda_run->geometry(p.size)) {
      r.launch = launch_arithmetic(*g, cuda->device().sm_count);
      r.occupancy = g->occupancy;
    }
    CudaJob job;
    job.kernel = &k;
    job.arrays = &p.arrays;
    job.sources = &sources.views;
    job.run = cuda_run.get();
    job.size = p.size;
    job.host = req.host;
    job.streams = req.streams;
    job.chunks = p.chunks;
    job.warmup = req.warmup;
    job.repeat = req.repeat;
    job.control = &control;
    job.counters = req.counters;
    job.kernel_name = r.occupancy && !r.occupancy->kernel_name.empty() ? r.occupancy->kernel_name
                                                                       : k.info().id + " (" + p.variant + ")";
    outcome = run_lab_cuda(*cuda, job);
    r.counters = std::move(outcome.counters.counters);
    r.counters_unavailable = std::move(outcome.counters.unavailable);
    run_views = outcome.arrays;
    r.upload_time = outcome.upload;
    r.kernel_time = outcome.kernel;
    r.first_launch_ms = outcome.first_kernel_ms;
    r.download_time = outcome.download;
    r.end_to_end_time = req.streams > 1 ? outcome.streamed_end_to_end : outcome.end_to_end;
    r.timeline = outcome.timeline;
    r.serial_timeline = outcome.serial_timeline;
    r.streamed_matches_serial = outcome.streamed_matches_serial;
    if (req.streams > 1) {
      r.serial_sum_ms = r.upload_time.median_ms + r.kernel_time.median_ms + r.download_time.median_ms;
      if (r.serial_sum_ms > 0) r.overlap_ratio = r.end_to_end_time.median_ms / r.serial_sum_ms;
    }
    if (outcome.upload_bytes && r.upload_time.median_ms > 0)
      r.upload_gbps = double(outcome.upload_bytes) / (r.upload_time.median_ms * 1e6);
    if (outcome.download_bytes && r.download_time.median_ms > 0)
      r.download_gbps = double(outcome.download_bytes) / (r.download_time.median_ms * 1e6);
    LabFacts facts;
    cuda_run->describe(facts);
    r.facts = std::move(facts.facts);
    r.series = std::move(facts.series);
    r.notes = std::move(facts.notes);
    add_mode_notes(req, r);
  }

  if (reference) {
    control.report(0, "checking against the CPU reference");
    r.check = k.compare_variant(p.variant, ref->views, run_views, p.size, req.params, pool);
  } else {
    r.check.detail = req.check ? "the CPU reference itself: nothing to compare with" : "not checked (--no-check)";
  }
  LabFacts facts;
  k.describe(run_views, p.size, req.params, facts);
  r.facts.insert(r.facts.end(), facts.facts.begin(), facts.facts.end());
  r.series.insert(r.series.end(), facts.series.begin(), facts.series.end());
  r.notes.insert(r.notes.end(), facts.notes.begin(), facts.notes.end());
  result.image = k.result_image(run_views, p.size, req.params);
  result.arrays = kept_arrays(req, run_views);
  fill_rates(r, &peaks);
  control.report(1, "done");
  return result;
}

}  // namespace ks::lab
