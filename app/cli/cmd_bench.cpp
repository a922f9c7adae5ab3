// `bench`: sweeps kernels x sizes x types x variants x blocks on generated images and prints one table with
// GB/s, % of the measured copy bandwidth and speedups. Progress on stderr; Ctrl-C stops between cases, prints
// what was measured (and writes it to --csv/--json marked incomplete) and exits 130. --roofline writes the
// results' roofline chart as a PNG.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "cli/bench_image.hpp"
#include "cli/bench_plan.hpp"
#include "cli/bench_results.hpp"
#include "cli/bench_roofline.hpp"
#include "cli/bench_why.hpp"
#include "cli/commands.hpp"
#include "cli/counters_option.hpp"
#include "inputs/image_files.hpp"
#include "cli/interrupt.hpp"
#include "cli/progress_bar.hpp"
#include "cli/request_checks.hpp"
#include "report/text_format.hpp"
#include "core/device_info.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/image_io.hpp"
#include "lab/lab.hpp"
#include "registry/registry.hpp"
#include "stencil/cpu/simd/simd_target.hpp"
#include "report/font.hpp"
#include "report/roofline_chart.hpp"

namespace ks::cli {

using inputs::check_output_folder;
using report::format_gbps;
using report::format_ms;

namespace {

bool has_png_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  return ext == ".png";
}

struct BenchOptions {
  // Empty lists take defaults that depend on whether a CUDA device is usable (see resolve_config).
  std::vector<std::string> kernels;
  std::vector<std::string> sizes;
  std::vector<std::string> types;
  std::vector<int> channels;
  std::vector<std::string> blocks;
  std::vector<std::string> backends;
  std::vector<std::string> params;
  std::vector<std::string> variants;
  int repeat = 5;
  int warmup = 1;
  std::string json;
  std::string csv;
  std::string roofline;  // a .png for the roofline chart
  bool counters = false;
  CounterSet counter_set = CounterSet::All;
};

// Without a GPU the sweep is the CPU reference alone, on sizes a laptop does in seconds; with one, sizes
// large enough to reach full bandwidth and every variant, with the CPU as the baseline of "vs cpu".
BenchConfig resolve_config(const BenchOptions& opt, bool cuda) {
  BenchConfig c;
  c.kernels = opt.kernels;
  if (c.kernels.empty())
    for (const auto& k : KernelRegistry::builtin().kernels())
      if (k.category == "stencil") c.kernels.push_back(k.id);
  c.sizes = opt.sizes;
  c.cuda = cuda;
  for (const auto& t : opt.types.empty() ? std::vector<std::string>{"u8", "f32"} : opt.types)
    c.types.push_back(kernel_type_from_string(t));
  c.channels = opt.channels.empty() ? std::vector<int>{1} : opt.channels;
  // Stencils take WxH blocks; lab kernels also a thread count ("256"), and their own defaults when none are given.
  if (opt.blocks.empty()) c.blocks = {{8, 8}, {16, 16}, {32, 8}};
  for (const auto& b : opt.blocks) {
    c.blocks.push_back(parse_block_or_threads(b));
    c.lab_blocks.push_back(c.blocks.back());
  }
  const std::vector<std::string> backends = !opt.backends.empty() ? opt.backends
                                            : cuda                ? std::vector<std::string>{"cpu", "cuda"}
                                                                  : std::vector<std::string>{"cpu"};
  for (const auto& b : backends) {
    const Backend backend = backend_from_string(b);
    if (std::find(c.backends.begin(), c.backends.end(), backend) == c.backends.end())
      c.backends.push_back(backend);
  }
  c.params = opt.params;
  c.variants = opt.variants;
  c.repeat = opt.repeat;
  c.warmup = opt.warmup;
  c.counters = opt.counters;
  return c;
}

StencilRequest request_for(const BenchCase& c, const BenchConfig& config) {
  StencilRequest r;
  r.kernel = c.spec->id;
  r.params = c.params;
  r.backend = c.backend;
  r.variant = c.variant;
  r.block = c.block;
  r.repeat = config.repeat;
  r.warmup = config.warmup;
  r.counters = config.counters && c.backend == Backend::Cuda;
  return r;
}

// Lab kernels: pinned host memory on CUDA (the transfers at their best; `lab --host` compares the modes), the
// CPU reference checked once per case.
lab::LabRequest lab_request_for(const BenchCase& c, const BenchConfig& config) {
  lab::LabRequest r;
  r.kernel = c.spec->id;
  r.size = c.lab_size;
  r.params = c.params;
  r.backend = c.backend;
  r.variant = c.variant;
  r.block = c.block;
  r.host = c.backend == Backend::Cuda ? lab::HostMode::Pinned : lab::HostMode::Pageable;
  r.repeat = config.repeat;
  r.warmup = config.warmup;
  r.counters = config.counters && c.backend == Backend::Cuda;
  return r;
}

BenchRow run_case(Engine& engine, const Image& image, const BenchCase& c, const BenchConfig& config) {
  BenchRow row{c, BenchRow::Status::Ok, {}, {}, 0, 0, std::nullopt};
  try {
    if (c.lab_size) {
      row.lab = lab::run_lab(engine, lab_request_for(c, config)).report;
      row.report = summary_of(*row.lab);
      if (row.lab->check.checked && !row.lab->check.agrees) {
        row.status = BenchRow::Status::Failed;
        row.note = "disagrees with the CPU: " + row.lab->check.detail;
      }
    } else {
      row.report = engine.run_stencil(image, request_for(c, config)).report;
    }
  } catch (const Error& e) {
    // A block the device or kernel cannot take is a fact of the sweep, not a failure: say so and go on.
    row.status = e.kind() == ErrorKind::Usage ? BenchRow::Status::Skipped : BenchRow::Status::Failed;
    row.note = e.kind() == ErrorKind::Usage ? std::string(e.what()) : e.full_message();
  }
  return row;
}

std::string row_summary(const BenchRow& r) {
  if (r.status != BenchRow::Status::Ok) return std::string(to_string(r.status)) + ": " + r.note;
  return fmt::format("{} ms, {} GB/s", format_ms(r.report.kernel_time.median_ms), format_gbps(r.report.gbps));
}

int run_bench(const BenchOptions& opt, const GlobalOptions& global) {
  Engine engine(Engine::Options{global.threads});
  // Whether CUDA is usable decides the defaults only. Asking the driver for devices is cheap; creating the
  // context (hundreds of ms) waits until the request has been checked, so a typo fails at once.
  const bool cuda_asked = opt.backends.empty() ||
                          std::find(opt.backends.begin(), opt.backends.end(), "cuda") != opt.backends.end();
  bool cuda = cuda_asked && no_device_reason().empty();
  BenchConfig config = resolve_config(opt, cuda);
  std::vector<BenchCase> cases = plan_bench(config);
  if (cuda && opt.backends.empty() && !engine.cuda_available()) {
    // A device is listed but cannot be used (busy, driver mismatch): the defaults fall back to the CPU.
    cuda = false;
    config = resolve_config(opt, cuda);
    cases = plan_bench(config);
  }
  const bool wants_cuda =
      std::find(config.backends.begin(), config.backends.end(), Backend::Cuda) != config.backends.end();
  if (wants_cuda) {
    require_cuda(engine, "--backends cpu");
    use_counter_set(engine, opt.counters, opt.counter_set);
  }
  if (!opt.json.empty()) check_output_folder(opt.json);
  if (!opt.csv.empty()) check_output_folder(opt.csv);
  // The chart's font is read before the sweep, so a missing fonts-dejavu-core fails at once, not after it.
  std::optional<report::Font> chart_font;
  if (!opt.roofline.empty()) {
    check_output_folder(opt.roofline);
    chart_font.emplace();
  }

  const std::string cpu_device = fmt::format("CPU ({} threads)", engine.pool().size());
  // The instruction set the CPU backend's SIMD loops run (Highway's choice for this CPU), when it is swept.
  const bool wants_cpu =
      std::find(config.backends.begin(), config.backends.end(), Backend::Cpu) != config.backends.end();
  const std::string cpu_simd = wants_cpu ? cpu::simd::simd_description() : std::string();
  const std::string cuda_device = wants_cuda ? engine.cuda().device().name : std::string();
  if (opt.backends.empty() && !cuda)
    fmt::print(stderr, "no CUDA device ({}): benchmarking the CPU backend only\n",
               cuda_missing_reason(engine));
  // The peaks of every backend swept (the roof of each result): measured once per process (a few 1 GiB copies
  // and an FMA kernel on the GPU, half a second on the CPU), before the progress bar so its ETA is not
  // skewed.
  std::map<Backend, ComputePeaks> peaks;
  for (Backend b : config.backends) {
    fmt::print(stderr, "measuring the peaks of {}...\n", b == Backend::Cuda ? cuda_device : cpu_device);
    peaks[b] = engine.peaks(b);
  }

  InterruptFlag interrupt;
  ProgressBar progress(stderr, cases.size(), ProgressBar::is_terminal(stderr));
  EtaEstimator eta;
  const int runs = config.repeat + config.warmup;
  // Each kernel and variant has its own cost per pixel (a 7x7 median is 100x a box blur): estimate them
  // apart.
  std::vector<std::string> kinds;
  std::vector<int> kind_of(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string key = cases[i].spec->id + "/" + cases[i].variant;
    auto it = std::find(kinds.begin(), kinds.end(), key);
    if (it == kinds.end()) it = kinds.insert(kinds.end(), key);
    kind_of[i] = int(it - kinds.begin());
  }

  std::vector<BenchRow> rows;
  Image image;
  bool interrupted = false;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (interrupt.raised()) {
      interrupted = true;
      break;
    }
    const BenchCase& c = cases[i];
    std::optional<double> left = 0.0;
    for (std::size_t j = i; j < cases.size() && left; ++j) {
      auto e = eta.estimate(kind_of[j], cases[j].work(runs));
      left = e ? std::optional<double>(*left + *e) : std::nullopt;
    }
    progress.start(i, c.label(), left);
    Stopwatch watch;
    if (!c.lab_size && !(image.shape() == c.shape())) image = bench_image(c.shape());
    rows.push_back(run_case(engine, image, c, config));
    eta.record(kind_of[i], c.work(runs), watch.elapsed_ms() / 1000.0);
    progress.finish(i, c.label(), row_summary(rows.back()));
  }
  progress.clear();

  compute_speedups(rows);
  fmt::print("bench on {}{}; {} timed runs after {} warm-up per case\n", cpu_device,
             cuda_device.empty() ? "" : " and " + cuda_device, config.repeat, config.warmup);
  if (!cpu_simd.empty()) fmt::print("CPU SIMD: {}\n", cpu_simd);
  if (wants_cuda && engine.cuda().copy_bandwidth_gbps() > 0)
    fmt::print("measured device copy bandwidth: {} GB/s\n", format_gbps(engine.cuda().copy_bandwidth_gbps()));
  fmt::print("{}", bench_table(rows).render());
  if (config.counters) {
    std::string unavailable;
    fmt::print("{}", bench_counters_text(rows, unavailable));
    say_no_counters(unavailable);
  }
  const DeviceInfo* cuda_info = wants_cuda ? &engine.cuda().device() : nullptr;
  fmt::print("{}", bench_why_summary(rows, cuda_info));

  if (!opt.csv.empty()) {
    write_text_atomically(opt.csv, bench_csv(rows));
    fmt::print("wrote {}\n", opt.csv);
  }
  if (!opt.json.empty()) {
    write_text_atomically(
        opt.json,
        bench_json(rows, config, !interrupted, cpu_device, cpu_simd, cuda_device, peaks, cuda_info).dump(2) + "\n");
    fmt::print("wrote {}\n", opt.json);
  }
  if (chart_font) {
    report::RooflineChartOptions chart;
    chart.title = fmt::format("kernelscope bench: roofline of {} result{}{}", rows.size(),
                              rows.size() == 1 ? "" : "s", interrupted ? " (interrupted)" : "");
    save_image(report::draw_roofline_chart(roofline_series(rows, peaks), chart, *chart_font), opt.roofline);
    fmt::print("wrote {}\n", opt.roofline);
  }
  if (interrupted) {
    std::fflush(stdout);
    fmt::print(stderr, "interrupted after {} of {} cases\n", rows.size(), cases.size());
    return kInterruptedExitCode;
  }
  const auto failed = std::count_if(rows.begin(), rows.end(),
                                    [](const BenchRow& r) { return r.status == BenchRow::Status::Failed; });
  if (failed) {
    std::fflush(stdout);
    fmt::print(stderr, "error: {} of {} cases failed. See the note column\n", failed, rows.size());
    return 1;
  }
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& app, const GlobalOptions& global) {
  auto opt = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand(
      "bench", "Sweep kernels x sizes x types x variants x blocks on random images and compare the timings");
  sub->add_option("--kernels", opt->kernels,
                  "Kernel ids, comma-separated: stencils and lab kernels (default: every stencil kernel)")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub->add_option("--sizes", opt->sizes,
                  "Sizes, comma-separated: square image sides for stencils (default: 1024,4096,8192 with CUDA, "
                  "512,1024 without); for lab kernels element counts (2^20, 1M, 1048576) or NxM / MxNxK (default: "
                  "each kernel's)")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub->add_option("--types", opt->types, "Element types: u8,f32 (default both)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"u8", "f32"}));
  sub->add_option("--channels", opt->channels, "Channel counts: 1,4 (default 1)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember({1, 4}));
  sub->add_option("--blocks", opt->blocks,
                  "CUDA block shapes (default 8x8,16x16,32x8; lab kernels: thread counts such as 256, default "
                  "each kernel's)")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub->add_option("--backends", opt->backends, "cpu,cuda (default: both with a CUDA device, else cpu)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_option("-p,--param", opt->params,
                  "NAME=VALUE for every selected kernel that has NAME; repeat for several")
      ->allow_extra_args(false);
  sub->add_option("--variants", opt->variants,
                  "Only these variants, comma-separated (default: every variant of each kernel on each backend)")
      ->delimiter(',')
      ->allow_extra_args(false);
  sub->add_option("--repeat", opt->repeat, "Timed runs per case")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--warmup", opt->warmup, "Untimed runs per case")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  sub->add_option("--json", opt->json, "Write the results as JSON to this file");
  sub->add_option("--csv", opt->csv, "Write the results as CSV to this file");
  sub->add_option(
         "--roofline", opt->roofline,
         "Write the results' roofline chart (log-log, each backend's roof, a point per result) to this .png")
      ->check([](const std::string& path) {
        return has_png_extension(path) ? std::string()
                                       : std::string("the roofline chart is a PNG: give a .png path");
      });
  add_counters_flag(*sub, opt->counters, opt->counter_set);
  return {sub, [opt, &global] { return run_bench(*opt, global); }};
}

}  // namespace ks::cli
