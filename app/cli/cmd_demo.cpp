// `demo`: what scripts/run shows until the desktop app exists. Runs a handful of kernels on the embedded
// sample with the best backend available (and says which and why), prints one timing table and writes every
// result as a PNG into a folder.
#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "inputs/image_files.hpp"
#include "report/report_json.hpp"
#include "report/report_text.hpp"
#include "cli/request_checks.hpp"
#include "report/table.hpp"
#include "report/text_format.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/image_io.hpp"
#include "registry/registry.hpp"

namespace ks::cli {

using inputs::InputImage;
using inputs::load_sample;
using inputs::to_file_layout;
using report::format_gbps;
using report::format_ms;
using report::format_percent;
using report::format_shape;
using report::occupancy_cell;
using report::occupancy_line;
using report::Table;

namespace {

struct DemoOptions {
  std::string out = "out/demo";
  int repeat = 5;
};

// A blur, a Gaussian, an edge detector, a sharpener and a non-linear filter: one of each kind of stencil.
constexpr std::array<const char*, 5> kDemoKernels = {"box", "gaussian", "sobel", "sharpen", "median"};

Table demo_table() {
  using A = Table::Align;
  return Table({{"kernel"},
                {"variant"},
                {"block"},
                {"upload ms", A::Right},
                {"kernel ms", A::Right},
                {"download ms", A::Right},
                {"GB/s", A::Right},
                {"% copy BW", A::Right},
                {"occupancy"},
                {"file"}});
}

int run_demo(const DemoOptions& opt, const GlobalOptions& global) {
  Engine engine(Engine::Options{global.threads});
  const bool cuda = engine.cuda_available();
  const Backend backend = cuda ? Backend::Cuda : Backend::Cpu;
  if (cuda) {
    fmt::print("backend: CUDA on {} (measured copy bandwidth {} GB/s)\n", engine.cuda().device().name,
               format_gbps(engine.cuda().copy_bandwidth_gbps()));
  } else {
    fmt::print("backend: CPU with {} threads, because there is no CUDA device: {}\n", engine.pool().size(),
               cuda_missing_reason(engine));
  }

  const InputImage sample = load_sample();
  const Image prepared = prepare_stencil_input(sample.image, std::nullopt);
  fmt::print("input: {} ({}), {} timed runs per kernel\n\n", sample.name, format_shape(sample.image.shape()),
             opt.repeat);

  const std::filesystem::path folder = opt.out;
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec)
    throw_io(fmt::format("cannot create the folder '{}': {}", folder.string(), ec.message()),
             "choose another folder with --out");
  save_image(sample.image, folder / "input.png");

  Table table = demo_table();
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  std::vector<std::string> occupancy_notes;
  const KernelRegistry& registry = KernelRegistry::builtin();
  for (const std::string id : kDemoKernels) {
    const KernelSpec* spec = registry.find(id);
    if (!spec) continue;  // a registry without this kernel still gets a demo of the others
    StencilRequest request;
    request.kernel = id;
    request.params = spec->default_params();
    request.backend = backend;
    request.repeat = opt.repeat;
    StencilResult result = engine.run_stencil(prepared, request);
    const RunReport& r = result.report;
    const std::string file = id + ".png";
    save_image(to_file_layout(result.output, sample.image.shape()), folder / file);

    const bool copies = backend == Backend::Cuda;
    table.add_row({id, r.variant, r.block ? to_string(*r.block) : "-", copies ? format_ms(r.upload_ms) : "-",
                   format_ms(r.kernel_time.median_ms), copies ? format_ms(r.download_ms) : "-",
                   format_gbps(r.gbps), format_percent(r.percent_of_copy), occupancy_cell(r), file});
    if (auto line = occupancy_line(r); !line.empty()) occupancy_notes.push_back(id + ": " + line);
    nlohmann::ordered_json j = to_json(r);
    j["output"] = (folder / file).string();
    runs.push_back(std::move(j));
  }

  fmt::print("{}", table.render());
  for (const auto& n : occupancy_notes) fmt::print("{}\n", n);
  nlohmann::ordered_json report = {
      {"schema", "kernelscope.demo/1"},
      {"backend", to_string(backend)},
      {"cuda_unavailable_reason", cuda ? std::string() : cuda_missing_reason(engine)},
      {"input", {{"path", sample.name}, {"image", to_json(sample.image.shape())}}},
      {"runs", std::move(runs)}};
  write_text_atomically(folder / "report.json", report.dump(2) + "\n");
  const std::filesystem::path shown = std::filesystem::absolute(folder, ec);
  fmt::print("\nwrote input.png, {} results and report.json to {}\n", table.row_count(),
             (ec ? folder : shown).string());
  return 0;
}

}  // namespace

Command add_demo_command(CLI::App& app, const GlobalOptions& global) {
  auto opt = std::make_shared<DemoOptions>();
  CLI::App* sub = app.add_subcommand(
      "demo", "Run box, gaussian, sobel, sharpen and median on the embedded sample and write the results");
  sub->add_option("--out", opt->out, "Folder for the result PNGs and report.json (created if missing)")
      ->capture_default_str();
  sub->add_option("--repeat", opt->repeat, "Timed runs per kernel")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  return {sub, [opt, &global] { return run_demo(*opt, global); }};
}

}  // namespace ks::cli
