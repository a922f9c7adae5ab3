// `sim --kernel-file FILE.cu`: a user's own `step` kernel (cli/user_kernel_lab.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "cli/request_checks.hpp"
#include "cli/user_kernel_lab.hpp"
#include "core/error.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"
#include "inputs/image_files.hpp"
#include "io/atomic_file.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"
#include "inputs/step_reference.hpp"
#include "registry/registry.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"
#include "report/comparison_json.hpp"
#include "report/counters_report.hpp"
#include "report/report_json.hpp"
#include "report/text_format.hpp"
#include "report/user_run_report.hpp"
#include "sim/sim_params.hpp"
#include "usercode/check/compare.hpp"
#include "usercode/run/checked_outcome.hpp"
#include "usercode/run/user_step.hpp"

namespace ks::cli {

namespace {

// The first state when no image is given: for a u8 state, a soup of 0 and 1 with a third of the cells 1 (Life's
// usual start); for f32, uniform values in [0, 1). Same seed, same state.
Image random_state(int width, int height, ElemType type, std::uint64_t seed) {
  Image state(width, height, 1, type);
  std::mt19937_64 random(seed);
  if (type == ElemType::U8) {
    for (auto& c : state.elements<std::uint8_t>()) c = random() % 3 == 0 ? 1 : 0;
  } else {
    std::uniform_real_distribution<float> uniform(0.f, 1.f);
    for (auto& c : state.elements<float>()) c = uniform(random);
  }
  return state;
}

std::pair<int, int> parse_size(const std::string& text) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w < 1 || h < 1)
    throw_usage(fmt::format("--size '{}' is not a grid size", text), "write WIDTHxHEIGHT, e.g. --size 512x512");
  return {w, h};
}

// What a picture of the state shows: a u8 state of only 0 and 1 (cells) is drawn black and white; other u8
// states as they are; f32 through the image writer (0..1 to black..white).
Image state_picture(const Image& state, bool& stretched) {
  stretched = false;
  if (state.type() != ElemType::U8) return state;
  const auto cells = state.elements<std::uint8_t>();
  if (std::any_of(cells.begin(), cells.end(), [](std::uint8_t c) { return c > 1; })) return state;
  Image picture(state.shape());
  std::transform(cells.begin(), cells.end(), picture.elements<std::uint8_t>().begin(),
                 [](std::uint8_t c) { return static_cast<std::uint8_t>(c * 255); });
  stretched = true;
  return picture;
}

// The built-in simulation `--compare` names, with its parameters: one that keeps a state of the kernel's type
// (life u8, heat f32), any of its variants ("cpu" when none is named). Usage Errors name what fits.
struct StepReference {
  std::string label;
  SimulationRequest request;
  usercode::Tolerance tolerance;
};

StepReference parse_step_reference(const UserStepCliOptions& opt, ElemType type) {
  const ComparedKernel compared = parse_compare(opt.compare);  // unknown kernels and variants refused there
  const KernelSpec& spec = *compared.spec;
  inputs::check_step_reference(spec.id, type);
  StepReference r;
  r.label = compared.label;
  r.request.kernel = spec.id;
  r.request.variant = compared.variant;
  r.request.backend = spec.find_variant(compared.variant)->backend;
  r.request.params = params_from_assignments(spec, opt.compare_params);
  sim::check_params(sim::sim_kind_of(spec.id), r.request.params);  // dt beyond the stability limit, ...
  r.tolerance = chosen_tolerance(usercode::default_tolerance(type), opt.abs_tol, opt.rel_tol);
  return r;
}

}  // namespace

int run_user_step_kernel(const UserStepCliOptions& opt, const GlobalOptions& global) {
  PreparedUserKernel prepared;
  if (!prepare_user_kernel(opt.common, "step", prepared)) return kKernelDoesNotCompile;
  const ElemType type = usercode::step_element(prepared.kernel);
  if (opt.steps < 1 || opt.steps > 1000000)
    throw_usage(fmt::format("--steps {}: give 1 to 1000000 steps", opt.steps));
  if (!opt.input.empty() && !opt.size.empty())
    throw_usage("-i and --size: a state started from an image has the image's size", "drop --size");
  const bool to_npy = opt.output.ends_with(".npy");
  if (to_npy && type != ElemType::F32)
    throw_usage("a u8 state has no .npy form here (.npy arrays are f32, f64, i32, u32, u64)",
                "write a picture (.png), or make the state float");
  std::optional<StepReference> reference;
  if (!opt.compare.empty()) reference = parse_step_reference(opt, type);
  if (opt.compare.empty() && (opt.abs_tol || opt.rel_tol || !opt.compare_params.empty()))
    throw_usage("--compare-param, --abs-tol and --rel-tol go with --compare KERNEL[:VARIANT]");
  if (!opt.output.empty()) inputs::check_output_folder(opt.output);
  if (!opt.json.empty()) inputs::check_output_folder(opt.json);

  Image initial;
  std::string start = fmt::format("a random state (seed {})", opt.seed);
  if (!opt.input.empty()) {
    inputs::InputImage in = inputs::load_input(opt.input);
    Image gray = in.image.channels() == 1 ? std::move(in.image) : convert_channels(in.image, 1);
    initial = gray.type() == type ? std::move(gray) : convert_type(gray, type);
    start = "image " + in.name;
  } else {
    const auto [w, h] = opt.size.empty() ? std::pair{512, 512} : parse_size(opt.size);
    initial = random_state(w, h, type, opt.seed);
  }

  start_user_worker(opt.common, "step", prepared);
  const usercode::UserStepRun run = usercode::run_user_steps(*prepared.worker, prepared.kernel, initial,
                                                             static_cast<int>(opt.steps), prepared.launch);
  throw_unless_ok(run.reply, opt.common.checked);
  if (const auto violation = usercode::checked_violation(run.reply, {"state", "next"}))
    throw Error(ErrorKind::Device, "your kernel went outside its states: " + *violation,
                "fix the index at that access; nothing was written");

  Engine engine(Engine::Options{global.threads});
  // The built-in from the same first state for as many steps, compared with yours at the end.
  std::optional<usercode::Comparison> comparison;
  if (reference) {
    const Image expected = inputs::builtin_steps(engine, reference->request, initial, opt.steps);
    comparison = usercode::compare_images(run.state, expected, reference->tolerance, &engine.pool());
  }
  const double copy_gbps = engine.cuda().copy_bandwidth_gbps();
  const TimingStats step_time = TimingStats::of(run.reply.kernel_ms);
  const std::uint64_t bytes = 2 * static_cast<std::uint64_t>(initial.byte_size());  // read the state, write the next
  const double cells = double(initial.width()) * initial.height();
  const double gbps = step_time.median_ms > 0 ? double(bytes) / (step_time.median_ms * 1e6) : 0;
  const double updates = step_time.median_ms > 0 ? cells / (step_time.median_ms * 1e-3) : 0;

  bool stretched = false;
  if (!opt.output.empty()) {
    if (to_npy) {
      NdArray a;
      a.type = DType::F32;
      a.shape = {run.state.height(), run.state.width()};
      a.data.assign(run.state.data(), run.state.data() + run.state.byte_size());
      write_npy(opt.output, a);
    } else {
      save_image(state_picture(run.state, stretched), opt.output);
    }
  }
  // What the explainer can tell from a user's step kernel: its block, its timing and its first step.
  report::WhyInput why;
  why.family = "simulation";
  why.backend = Backend::Cuda;
  why.block = BlockShape{int(run.block[0]), int(run.block[1])};
  why.kernel_time = step_time;
  if (!run.reply.kernel_ms.empty()) why.first_launch_ms = run.reply.kernel_ms.front();
  why.copy_bandwidth_gbps = copy_gbps;
  why.counters = user_counters(run.reply, opt.common.counters);
  const std::vector<report::WhyFinding> findings = report::explain_why(why);
  if (!opt.json.empty()) {
    nlohmann::ordered_json j = report_head("kernelscope.user_sim/1", prepared.kernel.entry_facts().name, "yours",
                                           Backend::Cuda, prepared.worker->hello().device);
    j["grid"] = {{"width", initial.width()}, {"height", initial.height()}, {"type", to_string(type)}};
    j["steps"] = opt.steps;
    j["block"] = run.block;
    j["timings_ms"] = {{"upload", run.reply.upload_ms}, {"download", run.reply.download_ms},
                       {"step", to_json(step_time)}};
    j["cost"] = {{"bytes_per_step", bytes}};
    j["gbps"] = gbps;
    j["copy_bandwidth_gbps"] = copy_gbps;
    j["percent_of_copy"] = copy_gbps > 0 ? 100 * gbps / copy_gbps : 0;
    j["cell_updates_per_second"] = updates;
    j["counters"] = report::counters_json(why.counters, 0);  // a kernel of yours counts no operations
    j["user_kernel"] = report::user_kernel_json(opt.common.kernel_file, prepared.kernel);
    j["why"] = report::why_json(findings);
    if (comparison) {
      j["comparison"] = report::comparison_json(*comparison);
      j["comparison"]["reference"] = reference->label;
    }
    write_text_atomically(opt.json, j.dump(2) + "\n");
  }
  fmt::print("your kernel {} ({}) on {}: {}x{} {} cells from {}, {} steps, block {}x{}\n",
             prepared.kernel.entry_facts().name, opt.common.kernel_file, prepared.worker->hello().device,
             initial.width(), initial.height(), to_string(type), start, opt.steps, run.block[0], run.block[1]);
  fmt::print("step: min {} ms, median {} ms, p95 {} ms; {:.1f} GB/s ({}), {:.3g} cell updates/s\n",
             report::format_ms(step_time.min_ms), report::format_ms(step_time.median_ms),
             report::format_ms(step_time.p95_ms), gbps,
             copy_gbps > 0 ? fmt::format("{:.1f}% of copy", 100 * gbps / copy_gbps) : "-", updates);
  if (why.counters) fmt::print("{}", report::counters_text(*why.counters, std::nullopt, 0));
  if (comparison)
    fmt::print("check against {} after {} steps: {}\n", reference->label, opt.steps,
               usercode::comparison_summary(*comparison));
  fmt::print("{}", report::why_paragraph(findings, why.counters.has_value()));
  if (!opt.output.empty())
    fmt::print("wrote {}{}\n", opt.output, stretched ? " (cells 0 and 1 drawn black and white)" : "");
  if (!opt.json.empty()) fmt::print("wrote {}\n", opt.json);
  // A final state that differs from the built-in's is a failure of the kernel, as with `run --compare`.
  return comparison && !comparison->matches() ? 1 : 0;
}

}  // namespace ks::cli
