// `lab`: runs one lab kernel (vecadd, saxpy, ...) once per repeat on the CPU or the GPU and prints what a CUDA
// course measures: the launch arithmetic, upload / kernel / download, GB/s and GFLOP/s against the copy
// bandwidth, the check against the CPU reference, and with --streams the overlap and a timeline chart. Arrays go
// in and out as .npy files (--in/--out NAME=FILE.npy), images through -i/-o (kmeans). The whole request is
// checked first (exit 2); Ctrl-C stops between steps (exit 130) and writes nothing.
#include <fmt/format.h>

#include <atomic>
#include <memory>

#include "cli/backend_choice.hpp"
#include "cli/commands.hpp"
#include "cli/counters_option.hpp"
#include "inputs/image_files.hpp"
#include "cli/interrupt.hpp"
#include "report/lab_report_json.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"
#include "cli/lab_report_text.hpp"
#include "cli/progress_bar.hpp"
#include "cli/request_checks.hpp"
#include "cli/user_kernel_lab.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"
#include "lab/lab.hpp"
#include "registry/registry.hpp"

namespace ks::cli {

using inputs::check_output_folder;
using inputs::load_input;

namespace {

struct LabOptions {
  std::string kernel;
  std::string size;
  std::vector<std::string> params;
  std::string variant;
  std::string block;
  std::string host;
  int streams = 1;
  std::optional<int> chunks;  // unset: the default (4 per stream)
  int repeat = 5;
  int warmup = 1;
  std::uint64_t seed = 1;
  std::string backend;
  bool no_check = false;
  std::string json;
  std::string csv;
  std::string input;
  std::string output;
  std::vector<std::string> in_arrays;
  std::vector<std::string> out_arrays;
  std::string kernel_file;  // your own `array` kernel (cli/user_kernel_lab.hpp)
  LabCompareOptions compare;  // with kernel_file: the lab kernel it is checked against
  bool checked = false;
  double timeout_s = 2;
  bool counters = false;
  CounterSet counter_set = CounterSet::All;
};

int run_own_array_kernel(const LabOptions& opt, const GlobalOptions& global) {
  if (!opt.kernel.empty())
    throw_usage(fmt::format("give either a lab kernel (`{}`) or --kernel-file, not both", opt.kernel),
                fmt::format("--compare {} checks your kernel against it", opt.kernel));
  if (!opt.variant.empty() || !opt.backend.empty() || !opt.host.empty() || opt.streams != 1 || opt.chunks ||
      !opt.input.empty() || !opt.output.empty() || !opt.csv.empty())
    throw_usage("--variant, --backend, --host, --streams, --chunks, -i, -o and --csv are for the built-in lab "
                "kernels",
                "your kernel takes --size, -p, --block, --repeat, --warmup, --seed, --in, --out, --json");
  UserArrayCliOptions u;
  u.common = {opt.kernel_file, opt.params, opt.block, opt.checked, opt.timeout_s, opt.counters, opt.counter_set};
  u.size = opt.size;
  u.in_arrays = opt.in_arrays;
  u.out_arrays = opt.out_arrays;
  u.repeat = opt.repeat;
  u.warmup = opt.warmup;
  u.seed = opt.seed;
  u.json = opt.json;
  u.compare = opt.compare;
  return run_user_array_kernel(u, global);
}

// "NAME=FILE"
std::pair<std::string, std::string> split_assignment(const std::string& text, const char* option) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw_usage(fmt::format("{} '{}' is not NAME=FILE", option, text), fmt::format("write e.g. {} a=a.npy", option));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string lab_kernel_ids() {
  std::string ids;
  for (const auto& k : KernelRegistry::builtin().kernels())
    if (k.lab) ids += (ids.empty() ? "" : ", ") + k.id;
  return ids;
}

int run_lab_command(const LabOptions& opt, const GlobalOptions& global) {
  if (!opt.kernel_file.empty()) return run_own_array_kernel(opt, global);
  if (opt.kernel.empty())
    throw_usage("name a lab kernel (" + lab_kernel_ids() + "), or your own with --kernel-file FILE.cu");
  if (opt.checked || !opt.compare.compare.empty() || !opt.compare.compare_params.empty() || opt.compare.abs_tol ||
      opt.compare.rel_tol)
    throw_usage("--checked, --compare, --compare-param, --abs-tol and --rel-tol go with --kernel-file (your own "
                "kernel)",
                "a built-in lab kernel is checked against its CPU reference by itself (--no-check skips it)");
  // Everything that needs no file and no device first.
  const KernelSpec& spec = KernelRegistry::builtin().get(opt.kernel);
  if (!spec.lab)
    throw_usage(fmt::format("'{}' is a {} kernel, not a lab kernel", spec.id, spec.category),
                "lab kernels: " + lab_kernel_ids() + " (image kernels run with `kernelscope-cli run`)");
  const lab::LabInfo& info = spec.lab->info();
  lab::LabRequest req;
  req.kernel = spec.id;
  req.params = params_from_assignments(spec, opt.params);
  if (!opt.size.empty()) req.size = lab::parse_lab_size(opt.size, info.form, spec.id);
  if (!opt.block.empty()) req.block = parse_block_or_threads(opt.block);
  if (!opt.host.empty()) req.host = lab::host_mode_from_string(opt.host);
  req.streams = opt.streams;
  if (opt.chunks) {
    lab::check_chunk_count(*opt.chunks);  // an explicit 0 too, which the request would take for the default
    req.chunks = *opt.chunks;
  }
  req.repeat = opt.repeat;
  req.warmup = opt.warmup;
  req.seed = opt.seed;
  req.check = !opt.no_check;
  req.counters = opt.counters;
  if (!opt.output.empty() && !info.makes_image)
    throw_usage(fmt::format("{} makes no image, so -o has nothing to write", spec.id),
                "write its arrays with --out NAME=FILE.npy");
  if (!opt.input.empty() && info.form != lab::SizeForm::Image)
    throw_usage(fmt::format("{} takes no image", spec.id), "give --size, and arrays with --in NAME=FILE.npy");
  std::vector<std::pair<std::string, std::string>> outs;
  for (const auto& o : opt.out_arrays) {
    outs.push_back(split_assignment(o, "--out"));
    req.keep.push_back(outs.back().first);
  }

  Engine engine(Engine::Options{global.threads});
  std::string note;
  req.backend = choose_backend(opt.backend, opt.variant, opt.block, spec, engine, note);
  req.variant = opt.variant;
  if (!opt.input.empty()) req.image = load_input(opt.input).image;  // kmeans' size is the image's
  for (const auto& in : opt.in_arrays) {
    auto [name, file] = split_assignment(in, "--in");
    NdArray a = read_npy(file);
    a.name = name;
    req.inputs.push_back(std::move(a));
  }
  // A bad request is refused (exit 2) before the device is asked for (exit 1 where there is none).
  lab::check_lab_request(engine, req, false);
  if (req.backend == Backend::Cuda) {
    require_cuda(engine, "--backend cpu");
    use_counter_set(engine, opt.counters, opt.counter_set);
  }
  for (const auto& [name, file] : outs) check_output_folder(file);
  if (!opt.output.empty()) check_output_folder(opt.output);
  if (!opt.json.empty()) check_output_folder(opt.json);
  if (!opt.csv.empty()) check_output_folder(opt.csv);
  // The block against the device, and its free memory, before the copy bandwidth is measured.
  lab::check_lab_request(engine, req);

  if (!note.empty()) fmt::print("{}\n", note);
  InterruptFlag interrupt;
  std::atomic<bool> cancel{false};
  ProgressBar progress(stderr, 100, ProgressBar::is_terminal(stderr));
  lab::LabRunControl control;
  control.cancel = &cancel;
  control.progress = [&](double fraction, const std::string& stage) {
    if (interrupt.raised()) cancel = true;
    progress.start(std::size_t(fraction * 100), stage, std::nullopt);
  };
  lab::LabResult result;
  try {
    result = lab::run_lab(engine, req, control);
  } catch (const Error& e) {
    progress.clear();
    if (e.kind() != ErrorKind::Cancelled) throw;
    std::fflush(stdout);
    fmt::print(stderr, "interrupted; nothing written\n");
    return kInterruptedExitCode;
  }
  progress.clear();

  // The files first: if writing fails there is no report claiming an output that does not exist.
  for (const auto& [name, file] : outs)
    for (const NdArray& a : result.arrays)
      if (a.name == name) write_npy(file, a);
  if (!opt.output.empty() && result.image) save_image(*result.image, opt.output);
  const DeviceInfo* device = device_of(engine, req.backend);
  if (!opt.json.empty()) write_text_atomically(opt.json, to_json(result.report, device).dump(2) + "\n");
  if (!opt.csv.empty()) write_text_atomically(opt.csv, lab_csv(result.report));
  say_no_counters(result.report.counters_unavailable);
  fmt::print("{}", lab_report_text(result.report));
  fmt::print("{}", report::why_paragraph(report::explain_why(result.report, device), result.report.counters));
  for (const auto& [name, file] : outs) fmt::print("wrote {} (array {})\n", file, name);
  if (!opt.output.empty() && result.image) fmt::print("wrote {}\n", opt.output);
  if (!opt.json.empty()) fmt::print("wrote {}\n", opt.json);
  if (!opt.csv.empty()) fmt::print("wrote {}\n", opt.csv);
  // A run that disagrees with the CPU reference is a failure of the kernel, not of the request.
  return result.report.check.checked && !result.report.check.agrees ? 1 : 0;
}

}  // namespace

Command add_lab_command(CLI::App& app, const GlobalOptions& global) {
  auto opt = std::make_shared<LabOptions>();
  CLI::App* sub = app.add_subcommand(
      "lab", "Run a basics-lab kernel (vecadd, saxpy, ...): launch arithmetic, transfers, streams, check vs CPU");
  sub->add_option("kernel", opt->kernel, "Lab kernel (see `kernelscope-cli list`); or give --kernel-file");
  sub->add_option("--size", opt->size,
                  "n (1048576, 2^20, 1M = 2^20, 2^20+3), NxM or MxNxK, as the kernel takes (default: its own)");
  sub->add_option("-p,--param", opt->params, "Parameter as NAME=VALUE; repeat for several")->allow_extra_args(false);
  sub->add_option("--variant", opt->variant, "Implementation (default: cpu, or the kernel's best CUDA variant)");
  sub->add_option("--block", opt->block, "CUDA block: B threads (1-D kernels, e.g. 256) or WxH (e.g. 16x16)");
  sub->add_option("--host", opt->host,
                  "Host memory of the arrays (CUDA): pageable (default), pinned, mapped (zero-copy), managed, "
                  "managed-prefetch")
      ->check(CLI::IsMember({"pageable", "pinned", "mapped", "managed", "managed-prefetch"}));
  sub->add_option("--streams", opt->streams,
                  "Cut the work into chunks uploaded, computed and downloaded in K streams (copies overlap "
                  "kernels; needs --host pinned to overlap, kernels that split)")
      ->capture_default_str();
  sub->add_option("--chunks", opt->chunks, "With --streams K: chunks (default 4 per stream)");
  sub->add_option("--repeat", opt->repeat, "Timed runs")->check(CLI::Range(1, 100000))->capture_default_str();
  sub->add_option("--warmup", opt->warmup, "Untimed runs first")->check(CLI::Range(0, 100000))->capture_default_str();
  sub->add_option("--seed", opt->seed, "Seed of the generated inputs (same seed, same bytes)")->capture_default_str();
  sub->add_option("--backend", opt->backend, "cpu or cuda (default: cuda when a device is usable, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_flag("--no-check", opt->no_check, "Skip the CPU reference and the comparison with it");
  add_counters_flag(*sub, opt->counters, opt->counter_set);
  sub->add_option("--json", opt->json, "Write the report (timings, timeline, check, facts) as JSON");
  sub->add_option("--csv", opt->csv, "Write the median timings and the timeline bars as CSV");
  sub->add_option("-i,--input", opt->input,
                  "Image for kernels that work on one (kmeans): " + supported_load_formats() + ", or 'sample'");
  sub->add_option("-o,--output", opt->output, "Save the image the kernel makes (kmeans: the quantised image)");
  sub->add_option("--in", opt->in_arrays, "Input array from a .npy file: NAME=FILE.npy (repeat for several)")
      ->allow_extra_args(false);
  sub->add_option("--out", opt->out_arrays, "Write an array after the run: NAME=FILE.npy (repeat for several)")
      ->allow_extra_args(false);
  sub->add_option("--kernel-file", opt->kernel_file,
                  "Run your own `array` kernel (a .cu file; README \"Your own kernel\"): inputs in1, in2, ... from "
                  "--in or generated from --seed, its output `out` written with --out out=FILE.npy");
  sub->add_option("--compare", opt->compare.compare,
                  "With --kernel-file: run the lab KERNEL[:VARIANT] (e.g. vecadd, reduce:warp; no variant: its CPU "
                  "reference) on the same inputs, which your kernel then gets, and check your result against it");
  sub->add_option("--compare-param", opt->compare.compare_params,
                  "With --compare: the lab kernel's NAME=VALUE (repeat)")
      ->allow_extra_args(false);
  sub->add_option("--abs-tol", opt->compare.abs_tol,
                  "With --compare: absolute tolerance (default 0 for int/unsigned, 1e-5 for float/double)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--rel-tol", opt->compare.rel_tol,
                  "With --compare: relative tolerance (default 0 for int/unsigned, 1e-5 for float/double)")
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--checked", opt->checked, "With --kernel-file: compile with -DKS_CHECKED (bounds-checked accessors)");
  sub->add_option("--timeout", opt->timeout_s, "With --kernel-file: seconds one launch may take before it is stopped")
      ->check(CLI::Range(0.05, 3600.0))
      ->capture_default_str();
  return {sub, [opt, &global] { return run_lab_command(*opt, global); }};
}

}  // namespace ks::cli
