// `sim`: runs a simulation (life, heat, grayscott) for N steps on the CPU or the GPU. Checks the whole
// request first (exit 2), then steps in chunks with a progress bar (Ctrl-C stops between chunks, exit 130,
// writing nothing but the PNG frames already complete), writes the final state, every K-th frame as PNGs and/or
// an animated GIF (each file atomically), and prints the per-step timing and, for Life, the population.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <optional>

#include "cli/backend_choice.hpp"
#include "cli/commands.hpp"
#include "cli/counters_option.hpp"
#include "inputs/image_files.hpp"
#include "cli/interrupt.hpp"
#include "cli/progress_bar.hpp"
#include "cli/request_checks.hpp"
#include "cli/user_kernel_lab.hpp"
#include "report/sim_frames.hpp"
#include "report/sim_report.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/gif_writer.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"
#include "sim/life_patterns.hpp"
#include "sim/simulation.hpp"
#include "sim/step_chunks.hpp"

namespace ks::cli {

using inputs::check_output_folder;
using inputs::InputImage;
using inputs::load_input;
using report::frame_path;
using report::parse_colormap;
using report::prepare_frames_folder;
using report::sim_report_text;
using report::SimPicture;

namespace {

struct SimOptions {
  std::string kernel;
  long long steps = 0;
  std::string size;
  std::string input;
  std::string pattern;
  std::vector<std::string> params;
  std::string backend;
  std::string variant;
  std::string block;
  std::string output;
  long long every = 0;
  std::string frames;
  std::string gif;
  int gif_delay = kDefaultGifDelayCs;
  std::string colormap = "gray";
  std::string json;
  std::string kernel_file;  // your own `step` kernel (cli/user_kernel_lab.hpp)
  std::uint64_t seed = 1;
  bool checked = false;
  double timeout_s = 2;
  std::string compare;                      // with --kernel-file: the built-in checked against
  std::vector<std::string> compare_params;
  std::optional<double> abs_tol, rel_tol;
  bool counters = false;
  CounterSet counter_set = CounterSet::All;
};

int run_own_step_kernel(const SimOptions& opt, const GlobalOptions& global) {
  if (!opt.kernel.empty())
    throw_usage(fmt::format("give either a simulation (`{}`) or --kernel-file, not both", opt.kernel));
  if (!opt.pattern.empty() || !opt.backend.empty() || !opt.variant.empty() || opt.every > 0 || !opt.frames.empty() ||
      !opt.gif.empty())
    throw_usage("--pattern, --backend, --variant, --every, --frames and --gif are for the built-in simulations",
                "your kernel takes --steps, --size or -i, -p, --block, --seed, -o, --json");
  UserStepCliOptions u;
  u.common = {opt.kernel_file, opt.params, opt.block, opt.checked, opt.timeout_s, opt.counters, opt.counter_set};
  u.steps = opt.steps;
  u.size = opt.size;
  u.input = opt.input;
  u.seed = opt.seed;
  u.output = opt.output;
  u.json = opt.json;
  u.compare = opt.compare;
  u.compare_params = opt.compare_params;
  u.abs_tol = opt.abs_tol;
  u.rel_tol = opt.rel_tol;
  return run_user_step_kernel(u, global);
}

// "WxH" with both sides >= 1; the simulation checks the upper limits.
std::pair<int, int> parse_grid_size(const std::string& text) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w < 1 ||
      h < 1)
    throw_usage(fmt::format("--size '{}' is not a grid size", text),
                "write WIDTHxHEIGHT, e.g. --size 512x512");
  return {w, h};
}

// A file when one exists at that path, else a built-in pattern of that name.
sim::LifePattern load_pattern(const std::string& what) {
  std::error_code ec;
  if (std::filesystem::exists(what, ec)) return sim::load_rle_file(what);
  if (what.find('/') != std::string::npos || what.ends_with(".rle"))
    throw_io(fmt::format("cannot read the pattern '{}': there is no such file", what),
             "check the path, or name a built-in pattern: " + sim::builtin_pattern_names());
  return sim::builtin_pattern(what);
}

int run_sim(const SimOptions& opt, const GlobalOptions& global) {
  if (!opt.kernel_file.empty()) return run_own_step_kernel(opt, global);
  if (opt.kernel.empty())
    throw_usage("name a simulation (life, heat, grayscott), or your own step kernel with --kernel-file FILE.cu");
  if (opt.checked) throw_usage("--checked goes with --kernel-file (your own kernel)");
  if (!opt.compare.empty() || !opt.compare_params.empty() || opt.abs_tol || opt.rel_tol)
    throw_usage("--compare, --compare-param, --abs-tol and --rel-tol go with --kernel-file (your own kernel)",
                "a built-in simulation is the reference: sim --kernel-file FILE.cu --compare life");
  // Everything that needs no file and no device first: a bad request costs nothing.
  const KernelSpec& spec = KernelRegistry::builtin().get(opt.kernel);
  if (spec.category != "simulation")
    throw_usage(fmt::format("'{}' is not a simulation kernel", spec.id),
                "simulations are life, heat and grayscott; run image kernels with `kernelscope-cli run`");
  SimulationRequest request;
  request.kernel = spec.id;
  request.params = params_from_assignments(spec, opt.params);
  if (!opt.size.empty()) std::tie(request.width, request.height) = parse_grid_size(opt.size);
  if (!opt.block.empty()) request.block = parse_block_shape(opt.block);
  const bool animated = !opt.frames.empty() || !opt.gif.empty();
  if ((opt.every > 0) != animated)
    throw_usage(opt.every > 0 ? "--every needs --frames or --gif" : "--frames and --gif need --every",
                "e.g. --every 10 --frames frames/, or --every 10 --gif run.gif");
  const report::Colormap colormap = parse_colormap(opt.colormap);
  if (!opt.gif.empty()) require_gif_support();
  if (!opt.input.empty() && !opt.pattern.empty())
    throw_usage("give -i IMAGE or --pattern, not both", "a pattern is placed on an empty grid");
  if (!opt.input.empty() && !opt.size.empty())
    throw_usage("-i and --size: a grid started from an image has the image's size", "drop --size");

  Engine engine(Engine::Options{global.threads});
  std::string note;
  request.backend = choose_checked_backend(opt.backend, opt.variant, opt.block, spec, request.params, engine, note);
  request.variant = opt.variant;
  if (request.backend == Backend::Cuda) use_counter_set(engine, opt.counters, opt.counter_set);
  if (!opt.output.empty()) check_output_folder(opt.output);
  if (!opt.json.empty()) check_output_folder(opt.json);
  if (!opt.gif.empty()) check_output_folder(opt.gif);

  SimulationStart start;
  std::string start_text = "the kernel's parameters";
  if (!opt.pattern.empty()) {
    start.pattern = load_pattern(opt.pattern);
    start_text = fmt::format("pattern '{}' ({}x{}, {} cells)", start.pattern->name, start.pattern->width,
                             start.pattern->height, start.pattern->population());
  }
  if (!opt.input.empty()) {
    InputImage in = load_input(opt.input);
    start_text = "image " + in.name;
    start.image = std::move(in.image);
  }
  // Before the memory is taken (and a 65536 x 65536 random fill takes its seconds): what it will take.
  const sim::SimMemoryNeed memory = Simulation::memory_needed(request, start);
  fmt::print("memory: {}\n", sim::memory_text(memory));
  std::fflush(stdout);
  Simulation sim(engine, request, std::move(start));
  if (!opt.frames.empty()) prepare_frames_folder(opt.frames);
  const SimPicture picture(sim, request.params, colormap);
  // Written frame by frame into a temporary file that becomes opt.gif only when the run completes.
  std::optional<GifAnimation> gif;
  if (!opt.gif.empty()) gif.emplace(opt.gif, sim.width(), sim.height(), picture.palette(), opt.gif_delay);

  if (!note.empty()) fmt::print("{}\n", note);
  fmt::print("{} on a {}x{} grid from {}\n", spec.id, sim.width(), sim.height(), start_text);
  if (request.backend == Backend::Cuda) {
    // Measured once per process (a few 1 GiB copies), before the timed steps rather than in the report.
    engine.cuda().copy_bandwidth_gbps();
  }

  InterruptFlag interrupt;
  const bool interactive = ProgressBar::is_terminal(stderr);
  ProgressBar progress(stderr, std::size_t(opt.steps), interactive);
  Stopwatch clock;
  long long frames_written = 0;
  auto write_frame = [&] {
    if (!opt.frames.empty()) save_image(picture.of(sim), frame_path(opt.frames, frames_written));
    if (gif) gif->add_frame(picture.levels(sim));
    ++frames_written;
  };
  if (animated) write_frame();  // frame 0: the initial state
  long long chunk = 1;
  while (sim.generation() < opt.steps && !interrupt.raised()) {
    const long long left = opt.steps - sim.generation();
    const long long n = opt.every > 0 ? std::min(opt.every, left) : std::min(chunk, left);
    Stopwatch watch;
    sim.step(n);
    if (opt.every > 0) {
      if (sim.generation() % opt.every == 0) write_frame();  // the last chunk may stop short of a multiple
    } else {
      chunk = sim::next_step_chunk(chunk, watch.elapsed_ms());
    }
    const double done = double(sim.generation());
    const double seconds = clock.elapsed_ms() / 1000.0;
    progress.start(std::size_t(sim.generation()), fmt::format("generation {}", sim.generation()),
                   seconds * (double(opt.steps) - done) / done);
  }
  progress.clear();
  if (sim.generation() < opt.steps) {
    std::fflush(stdout);
    const long long pngs = opt.frames.empty() ? 0 : frames_written;
    fmt::print(stderr, "interrupted after {} of {} steps; {} PNG frame{} written, no other output{}\n",
               sim.generation(), opt.steps, pngs, pngs == 1 ? "" : "s", gif ? " (no GIF)" : "");
    return kInterruptedExitCode;
  }

  if (opt.counters) say_no_counters(sim.read_counters().unavailable);
  const SimulationReport report = sim.report();
  const SimulationStats stats = sim.stats();
  const DeviceInfo* device = device_of(engine, sim.backend());
  // The pictures first: if saving fails there is no report claiming an output that does not exist. A .npy
  // output holds the state's values (life u8 0/255, heat u and Gray-Scott v as f32), for checking numerically.
  std::string extension = std::filesystem::path(opt.output).extension().string();
  for (char& ch : extension) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  const bool raw_output = extension == ".npy";
  if (!opt.output.empty()) save_image(raw_output ? sim.image() : picture.of(sim), opt.output);
  if (gif) gif->finish();
  if (!opt.json.empty()) {
    nlohmann::ordered_json j = to_json(report, stats, device);
    j["output"] = opt.output.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(opt.output);
    j["frames"] =
        opt.frames.empty()
            ? nlohmann::ordered_json(nullptr)
            : nlohmann::ordered_json{{"folder", opt.frames}, {"every", opt.every}, {"count", frames_written}};
    j["gif"] = !gif ? nlohmann::ordered_json(nullptr)
                    : nlohmann::ordered_json{{"file", opt.gif},
                                             {"every", opt.every},
                                             {"frames", gif->frames()},
                                             {"delay_cs", opt.gif_delay}};
    j["colormap"] = opt.colormap;
    write_text_atomically(opt.json, j.dump(2) + "\n");
  }
  fmt::print("{}", sim_report_text(report, stats));
  fmt::print("{}", report::why_paragraph(report::explain_why(report, device), report.counters));
  if (!opt.output.empty())
    fmt::print("wrote {} ({})\n", opt.output, raw_output ? "the state's values" : picture.mapping());
  if (!opt.frames.empty())
    fmt::print("wrote {} frames to {} (frame_00000.png is the initial state; {})\n", frames_written,
               opt.frames, picture.mapping());
  if (gif)
    fmt::print("wrote {} ({} frames, the first the initial state, {} ms each; {})\n", opt.gif, gif->frames(),
               opt.gif_delay * 10, picture.mapping());
  if (!opt.json.empty()) fmt::print("wrote {}\n", opt.json);
  return 0;
}

}  // namespace

Command add_sim_command(CLI::App& app, const GlobalOptions& global) {
  auto opt = std::make_shared<SimOptions>();
  CLI::App* sub = app.add_subcommand(
      "sim",
      "Run a simulation (life, heat, grayscott) for N steps, save its state and print the step timings");
  sub->add_option("kernel", opt->kernel,
                  "Simulation: life, heat or grayscott (see `kernelscope-cli list`); or give --kernel-file");
  sub->add_option("--steps", opt->steps, "Steps (generations) to run")
      ->required()
      ->check(CLI::Range(1LL, 1LL << 40));
  sub->add_option("--size", opt->size, "Grid size WxH (default: the image's size, else 512x512)");
  sub->add_option(
      "-i,--input", opt->input,
      "Start from an image (" + supported_load_formats() +
          "; 'sample' for the embedded one): heat u = luminance, grayscott v = luminance / 4, life "
          "alive where luminance >= 0.5");
  sub->add_option("--pattern", opt->pattern,
                  "Life: an RLE file, or a built-in pattern (" + sim::builtin_pattern_names() +
                      "), placed at the centre; its rule applies unless --param rule=... is given");
  sub->add_option("-p,--param", opt->params, "Parameter as NAME=VALUE; repeat for several")
      ->allow_extra_args(false);
  sub->add_option("--backend", opt->backend, "cpu or cuda (default: cuda when a device is usable, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_option(
      "--variant", opt->variant,
      "Implementation: cpu, cpu_bitpacked (life); naive, tiled, bitpacked (life on CUDA); naive, strip, "
      "temporal (heat, grayscott on CUDA; temporal runs -p steps_per_pass=1|2|4|8 steps per pass, default 4). "
      "Default: cpu, or the fastest CUDA one");
  sub->add_option("--block", opt->block, "CUDA block shape WxH (default 32x8)");
  sub->add_option("-o,--output", opt->output,
                  "Save the final state as an 8-bit image (" + supported_save_formats() +
                      "); a .npy file holds its values (life u8 0/255, heat u and grayscott v as f32)");
  sub->add_option("--every", opt->every, "With --frames or --gif: a frame every K-th step")
      ->check(CLI::Range(1LL, 1LL << 40));
  sub->add_option("--frames", opt->frames, "With --every: folder for frame_00000.png, frame_00001.png, ...");
  sub->add_option("--gif", opt->gif,
                  "With --every: an animated GIF of the run (the initial state, then every K-th step), looping");
  sub->add_option("--gif-delay", opt->gif_delay, "Hundredths of a second per GIF frame (default 4: 25 frames/s)")
      ->check(CLI::Range(1, 65535));
  sub->add_option("--colormap", opt->colormap,
                  "Colours of the saved pictures: gray (default; 8-bit gray PNGs), viridis, magma, diverging (RGB)");
  sub->add_option("--json", opt->json,
                  "Also write the report (steps, timings, population) as JSON to this file");
  sub->add_option("--kernel-file", opt->kernel_file,
                  "Run your own `step` kernel (a .cu file; README \"Your own kernel\") for --steps steps from a random "
                  "state (--seed) or an image (-i)");
  sub->add_option("--seed", opt->seed, "With --kernel-file: seed of the random first state")->capture_default_str();
  add_counters_flag(*sub, opt->counters, opt->counter_set);
  sub->add_flag("--checked", opt->checked, "With --kernel-file: compile with -DKS_CHECKED (bounds-checked accessors)");
  sub->add_option("--compare", opt->compare,
                  "With --kernel-file: run the built-in simulation KERNEL[:VARIANT] (life for u8 cells, heat for f32; "
                  "default variant cpu) from the same state for the same steps and check yours against it (exit 1 "
                  "when they differ)");
  sub->add_option("--compare-param", opt->compare_params, "With --compare: the reference's NAME=VALUE (repeat)")
      ->allow_extra_args(false);
  sub->add_option("--abs-tol", opt->abs_tol, "With --compare: absolute tolerance (default 0 for u8, 1e-5 for f32)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--rel-tol", opt->rel_tol, "With --compare: relative tolerance (default 0 for u8, 1e-5 for f32)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--timeout", opt->timeout_s, "With --kernel-file: seconds one step may take before it is stopped")
      ->check(CLI::Range(0.05, 3600.0))
      ->capture_default_str();
  return {sub, [opt, &global] { return run_sim(*opt, global); }};
}

}  // namespace ks::cli
