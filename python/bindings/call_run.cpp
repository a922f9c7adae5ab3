// ks.run: one stencil kernel on one numpy image, as `kernelscope-cli run` does (cli/cmd_run.cpp): the same
// request checks, backend choice and report, with the image read in place instead of loaded from a file.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include "calls.hpp"
#include "cli/backend_choice.hpp"
#include "cli/request_checks.hpp"
#include "core/error.hpp"
#include "engine/device_stencil.hpp"
#include "py_arrays.hpp"
#include "py_device_arrays.hpp"
#include "registry/registry.hpp"
#include "report/report_json.hpp"
#include "result.hpp"

namespace ks::python {

namespace py = pybind11;

namespace {

// The CLI's --repeat and --warmup ranges.
void check_count(const char* name, int value, int min) {
  constexpr int kMax = 100000;
  if (value < min || value > kMax)
    throw_usage(fmt::format("{}={} is out of range", name, value),
                fmt::format("allowed: {} .. {}", min, kMax));
}

// What `run --json` writes for the run, built when the report is first read (Result::make_report).
std::function<nlohmann::ordered_json()> report_of(RunReport report, const ImageShape& input_shape, int warmup) {
  return [report = std::move(report), input_shape, warmup] {
    return run_command_json(report, "", input_shape, "", warmup);
  };
}

// A CuPy or Numba array: read on the GPU, the result left there (a DeviceArray), nothing through the host.
Result run_on_device(Engines& engines, const KernelSpec& spec, StencilRequest request,
                     const py::handle& image, const std::string& backend, const std::string& variant,
                     const std::string& block, unsigned threads) {
  if (!backend.empty() && backend != "cuda")
    throw_usage(fmt::format("image is a device array, and backend='{}'", backend),
                "device arrays run on the CUDA backend: drop backend=, or copy the array to the host first");
  const DeviceInput device = device_image_of(image, "image");
  const DeviceImageRef& input = device.image;
  Engine& engine = engines.get(threads);
  std::string note;
  request.backend = cli::choose_checked_backend("cuda", variant, block, spec, request.params, engine, note);
  request.variant = variant;
  StencilResult out;
  {
    py::gil_scoped_release release;
    out = run_stencil_on_device(engine, input, request);
  }
  Result result;
  result.input_address = reinterpret_cast<std::uintptr_t>(input.data);
  result.output = py::cast(DeviceArray{out.output_device, device.two_d});
  result.make_report = report_of(std::move(out.report), input.shape, request.warmup);
  return result;
}

Result run(Engines& engines, const std::string& kernel, const py::handle& image, const std::string& backend,
           const std::string& variant, const std::string& block, unsigned threads, int repeat, int warmup,
           const std::vector<std::string>& params) {
  const KernelSpec& spec = KernelRegistry::builtin().get(kernel);
  if (spec.category != "stencil")
    throw_usage(
        fmt::format("'{}' is a {} kernel, not an image kernel", spec.id, spec.category),
        "ks.run takes image kernels (ks.kernels()); simulations run with ks.sim, lab kernels with ks.lab");
  StencilRequest request;
  request.kernel = spec.id;
  request.params = cli::params_from_assignments(spec, params);
  if (!block.empty()) request.block = parse_block_shape(block);
  check_count("repeat", repeat, 1);
  check_count("warmup", warmup, 0);
  request.repeat = repeat;
  request.warmup = warmup;
  if (is_device_array(image))
    return run_on_device(engines, spec, std::move(request), image, backend, variant, block, threads);
  Image borrowed = borrow_image(image, "image");
  const ImageShape input_shape = borrowed.shape();
  const bool two_d = py::reinterpret_borrow<py::array>(image).ndim() == 2;

  Engine& engine = engines.get(threads);
  Result result;
  std::string note;
  request.backend = cli::choose_checked_backend(backend, variant, block, spec, request.params, engine, note);
  request.variant = variant;
  if (!note.empty()) result.notes.push_back(note);

  StencilResult out;
  {
    py::gil_scoped_release release;
    const auto input =
        prepare_stencil_input(std::make_shared<const Image>(std::move(borrowed)), std::nullopt);
    result.input_address = reinterpret_cast<std::uintptr_t>(input->data());
    out = engine.run_stencil(*input, request);
    out.output = restore_channels(std::move(out.output), input_shape.channels);
  }
  result.output = image_to_numpy(std::move(out.output), two_d);
  result.make_report = report_of(std::move(out.report), input_shape, request.warmup);
  return result;
}

}  // namespace

void bind_run(py::module_& m, std::shared_ptr<Engines> engines) {
  m.def(
      "run",
      [engines](const std::string& kernel, const py::handle& image, const std::string& backend,
                const std::string& variant, const std::string& block, unsigned threads, int repeat,
                int warmup, const std::vector<std::string>& params) {
        return run(*engines, kernel, image, backend, variant, block, threads, repeat, warmup, params);
      },
      py::arg("kernel"), py::arg("image"), py::arg("backend"), py::arg("variant"), py::arg("block"),
      py::arg("threads"), py::arg("repeat"), py::arg("warmup"), py::arg("params"));
}

}  // namespace ks::python
