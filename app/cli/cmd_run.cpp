// `run`: one kernel on one image. Checks the whole request first (exit 2), then loads, runs through the
// engine, saves the result atomically, and prints the timing table (upload, kernel, download).
#include <fmt/format.h>

#include <memory>
#include <optional>

#include "cli/backend_choice.hpp"
#include "cli/commands.hpp"
#include "cli/counters_option.hpp"
#include "inputs/image_files.hpp"
#include "report/report_json.hpp"
#include "report/report_text.hpp"
#include "cli/request_checks.hpp"
#include "cli/user_kernel_run.hpp"
#include "report/text_format.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"

namespace ks::cli {

using inputs::check_output_folder;
using inputs::InputImage;
using inputs::load_input;
using inputs::to_file_layout;
using report::format_shape;
using report::run_report_text;

namespace {

struct RunOptions {
  std::string kernel;
  std::string input;
  std::string output;
  std::vector<std::string> params;
  std::string backend;  // empty: CUDA when there is a device, else the CPU
  std::string variant;
  std::string block;
  int repeat = 5;
  int warmup = 1;
  std::string type;  // empty: as prepare_stencil_input decides (u16 -> f32, otherwise kept)
  std::string json;
  // Your own kernel instead of a built-in one (cli/user_kernel_run.hpp).
  std::string kernel_file;
  std::string compare;
  std::vector<std::string> compare_params;
  std::string diff;
  std::optional<double> abs_tol, rel_tol;
  bool checked = false;
  double timeout_s = 2;
  bool counters = false;
  CounterSet counter_set = CounterSet::All;
};

int run_own_kernel(const RunOptions& opt, const GlobalOptions& global) {
  if (!opt.kernel.empty())
    throw_usage(fmt::format("give either a kernel id (`{}`) or --kernel-file, not both", opt.kernel),
                "--compare KERNEL[:VARIANT] checks your kernel against a built-in one");
  if (!opt.backend.empty() || !opt.variant.empty())
    throw_usage("--backend and --variant are for built-in kernels; your kernel runs on the GPU as written");
  UserKernelRunOptions u;
  u.kernel_file = opt.kernel_file;
  u.counters = opt.counters;
  u.counter_set = opt.counter_set;
  u.input = opt.input;
  u.output = opt.output;
  u.params = opt.params;
  u.block = opt.block;
  u.repeat = opt.repeat;
  u.warmup = opt.warmup;
  u.type = opt.type;
  u.json = opt.json;
  u.compare = opt.compare;
  u.compare_params = opt.compare_params;
  u.diff = opt.diff;
  u.abs_tol = opt.abs_tol;
  u.rel_tol = opt.rel_tol;
  u.checked = opt.checked;
  u.timeout_s = opt.timeout_s;
  return run_user_kernel(u, global);
}

int run_run(const RunOptions& opt, const GlobalOptions& global) {
  if (!opt.kernel_file.empty()) return run_own_kernel(opt, global);
  if (opt.kernel.empty())
    throw_usage("name a kernel to run (see `kernelscope-cli list`), or your own with --kernel-file FILE.cu");
  for (const bool own_only : {!opt.compare.empty(), !opt.compare_params.empty(), opt.checked, !opt.diff.empty()})
    if (own_only)
      throw_usage("--compare, --compare-param, --diff and --checked go with --kernel-file (your own kernel)");
  // Everything that needs neither the image nor a device first: a bad request costs nothing.
  const KernelSpec& spec = KernelRegistry::builtin().get(opt.kernel);
  StencilRequest request;
  request.kernel = spec.id;
  request.params = params_from_assignments(spec, opt.params);
  if (!opt.block.empty()) request.block = parse_block_shape(opt.block);
  std::optional<ElemType> type;
  if (!opt.type.empty()) type = kernel_type_from_string(opt.type);
  request.repeat = opt.repeat;
  request.warmup = opt.warmup;
  request.counters = opt.counters;

  Engine engine(Engine::Options{global.threads});
  std::string note;
  request.backend = choose_checked_backend(opt.backend, opt.variant, opt.block, spec, request.params, engine, note);
  request.variant = opt.variant;
  if (request.backend == Backend::Cuda) use_counter_set(engine, opt.counters, opt.counter_set);
  check_output_folder(opt.output);
  if (!opt.json.empty()) check_output_folder(opt.json);

  // One copy of a large image at a time: the kernel takes the loaded image itself when it needs no conversion,
  // and the result is saved as it is when the file's layout is the kernel's.
  InputImage input = load_input(opt.input);
  const ImageShape input_shape = input.image.shape();
  const auto loaded = std::make_shared<const Image>(std::move(input.image));
  StencilResult result = engine.run_stencil(*prepare_stencil_input(loaded, type), request);
  const DeviceInfo* device = device_of(engine, request.backend);

  // The image first: if saving fails there is no report claiming an output that does not exist.
  save_image(to_file_layout(std::move(result.output), input_shape), opt.output);
  if (!opt.json.empty())
    write_text_atomically(opt.json, run_command_json(result.report, input.name, input_shape, opt.output,
                                                     request.warmup, device)
                                        .dump(2) +
                                        "\n");

  if (!note.empty()) fmt::print("{}\n", note);
  say_no_counters(result.report.counters_unavailable);
  fmt::print("input {} ({})\n", input.name, format_shape(input_shape));
  fmt::print("{}", run_report_text(result.report));
  fmt::print("{}", report::why_paragraph(report::explain_why(result.report, device), result.report.counters));
  fmt::print("wrote {}\n", opt.output);
  if (!opt.json.empty()) fmt::print("wrote {}\n", opt.json);
  return 0;
}

}  // namespace

Command add_run_command(CLI::App& app, const GlobalOptions& global) {
  auto opt = std::make_shared<RunOptions>();
  CLI::App* sub =
      app.add_subcommand("run", "Run one kernel on an image, save the result and print its timings");
  sub->add_option("kernel", opt->kernel, "Kernel id (see `kernelscope-cli list`); or give --kernel-file");
  sub->add_option(
         "-i,--input", opt->input,
         "Input image (" + supported_load_formats() + "), or the word 'sample' for the embedded sample")
      ->required();
  sub->add_option("-o,--output", opt->output,
                  "Output image; the format follows the extension (" + supported_save_formats() + ")")
      ->required();
  sub->add_option("-p,--param", opt->params, "Parameter as NAME=VALUE; repeat for several")
      ->allow_extra_args(false);
  sub->add_option("--backend", opt->backend, "cpu or cuda (default: cuda when a device is usable, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_option(
      "--variant", opt->variant,
      "Implementation: cpu, naive, tiled, separable... (default: cpu on the CPU, else the fastest)");
  sub->add_option("--block", opt->block, "CUDA block shape WxH, e.g. 16x16 (default 32x8)");
  sub->add_option("--repeat", opt->repeat, "Timed runs; the table shows min, median and p95")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--warmup", opt->warmup, "Untimed runs before timing")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  sub->add_option("--type", opt->type,
                  "Element type the kernel runs on: u8 or f32 (default: the file's; 16-bit as f32)")
      ->check(CLI::IsMember({"u8", "f32"}));
  sub->add_option("--json", opt->json, "Also write the report as JSON to this file");
  sub->add_option("--kernel-file", opt->kernel_file,
                  "Run your own stencil kernel (a .cu file; README \"Your own kernel\") instead of a built-in one");
  sub->add_option("--compare", opt->compare,
                  "With --kernel-file: check the result against a built-in KERNEL[:VARIANT] (e.g. box:naive, or "
                  "box:cpu for the CPU reference)");
  sub->add_option("--compare-param", opt->compare_params, "With --compare: the reference's NAME=VALUE (repeat)")
      ->allow_extra_args(false);
  sub->add_option("--diff", opt->diff, "With --compare: write |your result - the reference| as a heatmap PNG");
  sub->add_option("--abs-tol", opt->abs_tol, "With --compare: absolute tolerance (default 0 for u8, 1e-5 for f32)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--rel-tol", opt->rel_tol, "With --compare: relative tolerance (default 0 for u8, 1e-5 for f32)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--checked", opt->checked,
                "With --kernel-file: bounds-checked image accessors; report the first access outside the image");
  sub->add_option("--timeout", opt->timeout_s,
                  "With --kernel-file: seconds one launch may take before it is stopped")
      ->check(CLI::Range(0.05, 3600.0))
      ->capture_default_str();
  add_counters_flag(*sub, opt->counters, opt->counter_set);
  return {sub, [opt, &global] { return run_run(*opt, global); }};
}

}  // namespace ks::cli
