// ks.lab: one lab kernel, as `kernelscope-cli lab` does (cli/cmd_lab.cpp): the same checks, backend choice
// and report; arrays go in from numpy and come out as numpy (copied: the lab owns its host arrays), with the
// image kernels' image (kmeans) read as ks.run reads one.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include "calls.hpp"
#include "cli/backend_choice.hpp"
#include "cli/request_checks.hpp"
#include "core/error.hpp"
#include "lab/host_mode.hpp"
#include "lab/lab.hpp"
#include "lab/lab_kernel.hpp"
#include "long_work.hpp"
#include "py_arrays.hpp"
#include "registry/registry.hpp"
#include "report/lab_report_json.hpp"
#include "result.hpp"

namespace ks::python {

namespace py = pybind11;

namespace {

struct LabCall {
  std::string kernel, size, variant, backend, host, block;
  int streams = 1, chunks = 0, repeat = 5, warmup = 1;
  std::uint64_t seed = 1;
  bool check = true;
  unsigned threads = 0;
  py::dict inputs;   // name -> numpy array
  py::object image;  // None or a numpy image (kmeans)
  std::vector<std::string> params;
  py::object progress;
};

Result lab_call(Engines& engines, const LabCall& c) {
  const KernelSpec& spec = KernelRegistry::builtin().get(c.kernel);
  if (!spec.lab)
    throw_usage(fmt::format("'{}' is a {} kernel, not a lab kernel", spec.id, spec.category),
                "lab kernels are those of ks.kernels() with a \"lab\" entry; image kernels run with ks.run");
  const lab::LabInfo& info = spec.lab->info();
  lab::LabRequest req;
  req.kernel = spec.id;
  req.params = cli::params_from_assignments(spec, c.params);
  if (!c.size.empty()) req.size = lab::parse_lab_size(c.size, info.form, spec.id);
  if (!c.block.empty()) req.block = parse_block_or_threads(c.block);
  if (!c.host.empty()) req.host = lab::host_mode_from_string(c.host);
  req.streams = c.streams;
  if (c.chunks) {
    lab::check_chunk_count(c.chunks);
    req.chunks = c.chunks;
  }
  if (c.repeat < 1) throw_usage(fmt::format("repeat={} is out of range", c.repeat), "allowed: 1 .. 100000");
  if (c.warmup < 0) throw_usage(fmt::format("warmup={} is out of range", c.warmup), "allowed: 0 .. 100000");
  req.repeat = c.repeat;
  req.warmup = c.warmup;
  req.seed = c.seed;
  req.check = c.check;
  if (!c.image.is_none()) {
    if (info.form != lab::SizeForm::Image)
      throw_usage(fmt::format("{} takes no image", spec.id),
                  "give size=..., and arrays with inputs={name: array}");
    req.image = Image(borrow_image(c.image, "image"));  // the lab keeps its image: an owned copy
  }
  for (const auto& [name, array] : c.inputs) {
    const std::string n = py::str(name);
    req.inputs.push_back(ndarray_from_numpy(array, n, fmt::format("inputs['{}']", n)));
  }

  Engine& engine = engines.get(c.threads);
  Result result;
  std::string note;
  req.backend = cli::choose_backend(c.backend, c.variant, c.block, spec, engine, note);
  req.variant = c.variant;
  if (!note.empty()) result.notes.push_back(note);
  lab::check_lab_request(engine, req, false);
  if (req.backend == Backend::Cuda) cli::require_cuda(engine, "backend='cpu'");
  lab::check_lab_request(engine, req);
  // Every array of the kernel comes back (the inputs too: generated from the seed when not given).
  const lab::LabSize size = req.size    ? *req.size
                            : req.image ? lab::LabSize::image(req.image->width(), req.image->height())
                                        : info.default_size;
  for (const auto& a : spec.lab->arrays(size, req.params)) req.keep.push_back(a.name);

  LongWork work(c.progress);
  lab::LabRunControl control;
  control.cancel = &work.cancel;
  control.progress = [&](double fraction, const std::string& stage) { work.report(fraction, stage); };
  lab::LabResult out;
  try {
    py::gil_scoped_release release;
    out = lab::run_lab(engine, req, control);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Cancelled) throw;
    work.finish();
    throw;
  }
  work.finish();
  result.report_json = to_json(out.report);
  for (NdArray& a : out.arrays) {
    const std::string name = a.name;
    result.outputs[py::str(name)] = ndarray_to_numpy(std::move(a));
  }
  if (out.image) result.output = image_to_numpy(std::move(*out.image), true);
  return result;
}

}  // namespace

void bind_lab(py::module_& m, std::shared_ptr<Engines> engines) {
  m.def(
      "lab",
      [engines](const std::string& kernel, const std::string& size, const std::string& variant,
                const std::string& backend, const std::string& host, const std::string& block, int streams,
                int chunks, int repeat, int warmup, std::uint64_t seed, bool check, unsigned threads,
                py::dict inputs, py::object image, const std::vector<std::string>& params,
                py::object progress) {
        return lab_call(*engines,
                        {kernel, size, variant, backend, host, block, streams, chunks, repeat, warmup, seed,
                         check, threads, std::move(inputs), std::move(image), params, std::move(progress)});
      },
      py::arg("kernel"), py::arg("size"), py::arg("variant"), py::arg("backend"), py::arg("host"),
      py::arg("block"), py::arg("streams"), py::arg("chunks"), py::arg("repeat"), py::arg("warmup"),
      py::arg("seed"), py::arg("check"), py::arg("threads"), py::arg("inputs"), py::arg("image"),
      py::arg("params"), py::arg("progress"));
}

}  // namespace ks::python
