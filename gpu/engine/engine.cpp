#include "engine/engine.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "engine/device_stencil.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/simd/simd_target.hpp"
#include "stencil/cpu/recursive_cpu.hpp"
#include "stencil/cpu/stencil_cpu.hpp"
#include "stencil/cuda/stencil_cuda.hpp"
#include "stencil/stencil_plan.hpp"

namespace ks {

std::string Engine::default_cuda_variant(const KernelSpec& spec, const ParamSet& params) {
  if (spec.find_variant("separable") && !spec.unavailable_reason("separable", params)) return "separable";
  return "tiled";
}

namespace {

// Checks everything about a request that does not need a device, so that a bad request fails before work starts.
const VariantSpec& resolve_variant(const KernelSpec& spec, const StencilRequest& req, std::string& variant) {
  variant = req.variant;
  if (variant.empty()) variant = req.backend == Backend::Cpu ? "cpu" : Engine::default_cuda_variant(spec, req.params);
  const VariantSpec* v = spec.find_variant(variant);
  if (!v) {
    std::string known;
    for (const auto& x : spec.variants) known += (known.empty() ? "" : ", ") + x.name;
    throw_usage(fmt::format("kernel '{}' has no variant '{}'", spec.id, variant), "its variants are: " + known);
  }
  if (v->backend != req.backend)
    throw_usage(fmt::format("variant '{}' runs on the {} backend, not {}", variant, to_string(v->backend),
                            to_string(req.backend)),
                fmt::format("use --backend {} with it, or drop --variant", to_string(v->backend)));
  if (auto why = spec.unavailable_reason(variant, req.params))
    throw_usage(fmt::format("variant '{}' cannot run '{}' with these parameters: {}", variant, spec.id, *why));
  return *v;
}

void check_input(const KernelSpec& spec, const ImageShape& input) {
  if (input.pixel_count() == 0)
    throw_usage("the input image is empty (0 pixels)", "load an image with at least one pixel");
  if (!spec.takes(input.type))
    throw_usage(fmt::format("kernel '{}' does not take {} images", spec.id, to_string(input.type)),
                "convert with --type u8 or --type f32");
  if (!spec.takes_channels(input.channels))
    throw_usage(fmt::format("kernel '{}' does not take {}-channel images", spec.id, input.channels),
                "convert to 1 or 4 channels first (prepare_stencil_input does)");
}

// A run as far as it goes without its pixels: the request checked (everything that needs no device), the plan,
// and the report's head.
struct PreparedRun {
  StencilPlan plan;
  StencilResult result;
};

PreparedRun prepare_run(const ImageShape& shape, const StencilRequest& req) {
  const KernelSpec& spec = KernelRegistry::builtin().get(req.kernel);
  if (spec.category != "stencil") throw_usage(fmt::format("'{}' is not an image stencil kernel", spec.id));
  check_input(spec, shape);
  if (req.repeat < 1) throw_usage(fmt::format("repeat={} must be at least 1", req.repeat));
  if (req.warmup < 0) throw_usage(fmt::format("warmup={} must not be negative", req.warmup));
  std::string variant;
  resolve_variant(spec, req, variant);
  if (req.backend == Backend::Cpu && req.block)
    throw_usage("a block shape applies to the CUDA backend only", "drop --block, or add --backend cuda");
  PreparedRun p{make_stencil_plan(spec.id, req.params), {}};
  RunReport& r = p.result.report;
  r.kernel = spec.id;
  r.variant = variant;
  r.backend = req.backend;
  r.shape = shape;
  r.params = req.params.as_text();
  r.cost = spec.cost_of(variant, shape, req.params);
  return p;
}

// The CUDA run's figures into the report.
void report_cuda_run(cuda::StencilRun& run, CudaContext& ctx, BlockShape block, StencilResult& result) {
  RunReport& r = result.report;
  result.output = std::move(run.output);
  result.output_device = std::move(run.output_device);
  r.device = ctx.device().name;
  r.block = block;
  r.upload_ms = run.upload_ms;
  r.download_ms = run.download_ms;
  r.kernel_time = TimingStats::of(std::move(run.kernel_ms));
  r.first_launch_ms = run.first_launch_ms;
  r.occupancy = std::move(run.occupancy);
  r.copy_bandwidth_gbps = ctx.copy_bandwidth_gbps();
  r.counters = std::move(run.counters.counters);
  r.counters_unavailable = std::move(run.counters.unavailable);
}

// The rates the report derives from the timings, against the backend's peaks.
void finish_report(RunReport& r, const ComputePeaks& peaks) {
  if (r.kernel_time.median_ms > 0) r.gbps = double(r.cost.bytes) / (r.kernel_time.median_ms * 1e6);
  if (r.copy_bandwidth_gbps > 0) r.percent_of_copy = 100.0 * r.gbps / r.copy_bandwidth_gbps;
  r.roofline = roofline_figures(r.cost.roofline_mix(), r.cost.bytes, r.kernel_time.median_ms, peaks);
}

void copy_alpha(const Image& from, Image& to) {
  const std::size_t es = elem_size(from.type());
  const std::size_t n = from.shape().pixel_count();
  for (std::size_t i = 0; i < n; ++i) std::copy_n(from.data() + (4 * i + 3) * es, es, to.data() + (4 * i + 3) * es);
}

}  // namespace

StencilResult Engine::run_stencil(const Image& input, const StencilRequest& req) {
  PreparedRun prepared = prepare_run(input.shape(), req);
  const StencilPlan& plan = prepared.plan;
  const std::string variant = prepared.result.report.variant;
  StencilResult& result = prepared.result;
  RunReport& r = result.report;

  if (req.backend == Backend::Cpu) {
    r.device = fmt::format("CPU ({} thread{})", pool().size(), pool().size() == 1 ? "" : "s");
    r.cpu_simd = cpu::simd::simd_description();
    // One output for every run: the warm-up also pays its page faults, so the samples time the filter.
    result.output = Image(input.shape());
    const auto run_cpu = [&] {
      if (variant == "cpu_recursive")
        cpu::run_recursive_gaussian(plan, input, result.output, pool());
      else
        cpu::run_stencil_into(plan, input, result.output, pool());
    };
    for (int i = 0; i < req.warmup; ++i) {
      Stopwatch watch;
      run_cpu();
      if (i == 0) r.first_launch_ms = watch.elapsed_ms();
    }
    std::vector<double> samples;
    for (int i = 0; i < req.repeat; ++i) {
      Stopwatch watch;
      run_cpu();
      samples.push_back(watch.elapsed_ms());
    }
    r.kernel_time = TimingStats::of(std::move(samples));
    if (req.counters) r.counters_unavailable = counters_on_cpu_message("this run");
  } else {
    CudaContext& ctx = cuda();
    const BlockShape block = req.block.value_or(BlockShape{});
    cuda::StencilOutputs outputs;
    outputs.keep_on_device = req.keep_on_device;
    outputs.download = req.download || !req.keep_on_device;  // the result must end up somewhere
    outputs.device_keeps_input_alpha = req.keep_alpha;
    outputs.counters = req.counters;
    cuda::StencilRun run = cuda::run_stencil(ctx, plan, variant, input, block, req.warmup, req.repeat, outputs);
    report_cuda_run(run, ctx, block, result);
  }
  if (req.keep_alpha && input.channels() == 4 && !result.output.empty()) copy_alpha(input, result.output);
  finish_report(r, peaks(req.backend));
  return std::move(prepared.result);
}

StencilResult run_stencil_on_device(Engine& engine, const DeviceImageRef& input, const StencilRequest& req) {
  if (req.backend != Backend::Cuda)
    throw_usage("an image on the GPU runs on the CUDA backend", "ask for the CUDA backend, or copy it to the host");
  PreparedRun prepared = prepare_run(input.shape, req);
  CudaContext& ctx = engine.cuda();
  const BlockShape block = req.block.value_or(BlockShape{});
  cuda::StencilRun run = cuda::run_stencil_on_device(ctx, prepared.plan, prepared.result.report.variant, input,
                                                     block, req.warmup, req.repeat, req.keep_alpha);
  report_cuda_run(run, ctx, block, prepared.result);
  finish_report(prepared.result.report, engine.peaks(Backend::Cuda));
  return std::move(prepared.result);
}

Image prepare_stencil_input(const Image& loaded, std::optional<ElemType> to_type) {
  ElemType type = to_type.value_or(loaded.type() == ElemType::U16 ? ElemType::F32 : loaded.type());
  if (type == ElemType::U16) throw_usage("stencil kernels take u8 or f32 images, not u16", "use --type u8 or f32");
  Image img = loaded.type() == type ? loaded : convert_type(loaded, type);
  if (img.channels() == 2 || img.channels() == 3) img = convert_channels(img, 4);
  return img;
}

std::shared_ptr<const Image> prepare_stencil_input(const std::shared_ptr<const Image>& loaded,
                                                   std::optional<ElemType> to_type) {
  const ElemType type = to_type.value_or(loaded->type() == ElemType::U16 ? ElemType::F32 : loaded->type());
  const bool as_loaded = type == loaded->type() && type != ElemType::U16 &&
                         (loaded->channels() == 1 || loaded->channels() == 4);
  if (as_loaded) return loaded;
  return std::make_shared<const Image>(prepare_stencil_input(*loaded, to_type));
}

Image restore_channels(Image result, int original_channels) {
  if (original_channels == result.channels() || result.channels() != 4) return result;
  if (original_channels == 3) return convert_channels(result, 3);
  if (original_channels == 2) {  // gray + alpha went in as (g, g, g, a): take gray and alpha back out
    Image out(result.width(), result.height(), 2, result.type());
    const std::size_t es = elem_size(result.type());
    const std::size_t n = result.shape().pixel_count();
    const std::byte* src = result.data();
    std::byte* dst = out.data();
    for (std::size_t i = 0; i < n; ++i) {
      std::copy_n(src + (4 * i + 0) * es, es, dst + (2 * i + 0) * es);
      std::copy_n(src + (4 * i + 3) * es, es, dst + (2 * i + 1) * es);
    }
    return out;
  }
  return result;
}

}  // namespace ks
