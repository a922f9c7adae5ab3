// ks.sim: a simulation for N steps, as `kernelscope-cli sim` does (cli/cmd_sim.cpp): the same checks, backend
// choice and report; the final state (and, with `every`, the states between) come back as numpy arrays.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <filesystem>

#include "calls.hpp"
#include "cli/backend_choice.hpp"
#include "cli/request_checks.hpp"
#include "core/error.hpp"
#include "core/timing.hpp"
#include "long_work.hpp"
#include "py_arrays.hpp"
#include "registry/registry.hpp"
#include "report/sim_report.hpp"
#include "result.hpp"
#include "sim/life_patterns.hpp"
#include "sim/rle.hpp"
#include "sim/simulation.hpp"
#include "sim/step_chunks.hpp"

namespace ks::python {

namespace py = pybind11;

namespace {

constexpr long long kMaxSteps = 1LL << 40;  // the CLI's --steps range

struct SimCall {
  std::string kernel;
  long long steps = 0;
  int width = 0, height = 0;  // 0: the kernel's default, or the initial image's
  py::object initial;         // None, a numpy image, or a pattern's name (life)
  std::string backend, variant, block;
  unsigned threads = 0;
  long long every = 0;
  std::vector<std::string> params;
  py::object progress;
};

Result sim(Engines& engines, const SimCall& c) {
  const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
  if (spec.category != "simulation")
    throw_usage(fmt::format("'{}' is not a simulation kernel", spec.id),
                "simulations are life, heat and grayscott; run image kernels with ks.run");
  if (c.steps < 1 || c.steps > kMaxSteps)
    throw_usage(fmt::format("steps={} is out of range", c.steps), fmt::format("allowed: 1 .. {}", kMaxSteps));
  if (c.every < 0)
    throw_usage(fmt::format("every={} is negative", c.every), "give every=K > 0 for frames, or leave it out");
  SimulationRequest request;
  request.kernel = spec.id;
  request.params = cli::params_from_assignments(spec, c.params);
  request.width = c.width;
  request.height = c.height;
  if (!c.block.empty()) request.block = parse_block_shape(c.block);
  SimulationStart start;
  if (py::isinstance<py::str>(c.initial)) {
    // As the CLI's --pattern: an RLE file where one exists at that path, else a built-in pattern of that
    // name.
    const std::string what = c.initial.cast<std::string>();
    std::error_code missing;
    start.pattern =
        std::filesystem::exists(what, missing) ? sim::load_rle_file(what) : sim::builtin_pattern(what);
  } else if (!c.initial.is_none()) {
    if (c.width || c.height)
      throw_usage("initial and size: a grid started from an image has the image's size", "drop size");
    start.image = Image(borrow_image(c.initial, "initial"));  // an owned copy: the simulation keeps its start
  }

  Engine& engine = engines.get(c.threads);
  Result result;
  std::string note;
  request.backend =
      cli::choose_checked_backend(c.backend, c.variant, c.block, spec, request.params, engine, note);
  request.variant = c.variant;
  if (!note.empty()) result.notes.push_back(note);

  std::vector<Image> frames;
  std::optional<Simulation> simulation;
  LongWork work(c.progress);
  {
    py::gil_scoped_release release;
    simulation.emplace(engine, request, std::move(start));
    Simulation& s = *simulation;
    if (c.every > 0) frames.push_back(s.image());
    long long chunk = 1;
    while (s.generation() < c.steps && !work.cancel) {
      const long long left = c.steps - s.generation();
      const long long n = c.every > 0 ? std::min(c.every, left) : std::min(chunk, left);
      Stopwatch watch;
      s.step(n);
      if (c.every > 0 && s.generation() % c.every == 0) frames.push_back(s.image());
      chunk = sim::next_step_chunk(chunk, watch.elapsed_ms());  // as the CLI's: Ctrl-C answered promptly
      work.report(double(s.generation()) / double(c.steps), fmt::format("generation {}", s.generation()));
    }
  }
  work.finish();
  Simulation& s = *simulation;
  nlohmann::ordered_json j = to_json(s.report(), s.stats());
  j["output"] = nullptr;
  j["frames"] =
      c.every > 0 ? nlohmann::ordered_json{{"folder", nullptr}, {"every", c.every}, {"count", frames.size()}}
                  : nlohmann::ordered_json(nullptr);
  j["gif"] = nullptr;
  j["colormap"] = "gray";
  result.report_json = std::move(j);
  result.output = image_to_numpy(s.image(), true);
  for (Image& f : frames) result.frames.append(image_to_numpy(std::move(f), true));
  return result;
}

}  // namespace

void bind_sim(py::module_& m, std::shared_ptr<Engines> engines) {
  m.def(
      "sim",
      [engines](const std::string& kernel, long long steps, int width, int height, py::object initial,
                const std::string& backend, const std::string& variant, const std::string& block,
                unsigned threads, long long every, const std::vector<std::string>& params,
                py::object progress) {
        return sim(*engines, {kernel, steps, width, height, std::move(initial), backend, variant, block,
                              threads, every, params, std::move(progress)});
      },
      py::arg("kernel"), py::arg("steps"), py::arg("width"), py::arg("height"), py::arg("initial"),
      py::arg("backend"), py::arg("variant"), py::arg("block"), py::arg("threads"), py::arg("every"),
      py::arg("params"), py::arg("progress"));
}

}  // namespace ks::python
