// ks.kernels: the registry, as `kernelscope-cli list --json` prints its "kernels" (cli/spec_json.hpp).
#include "calls.hpp"
#include "cli/spec_json.hpp"
#include "core/device_info.hpp"
#include "py_json.hpp"
#include "registry/registry.hpp"

namespace ks::python {

namespace py = pybind11;

void bind_kernels(py::module_& m) {
  m.def("kernels", [] {
    // As the CLI asks: cheap, no context is created.
    const bool cuda = no_device_reason().empty();
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& k : KernelRegistry::builtin().kernels()) list.push_back(to_json(k, cuda));
    return to_python(list);
  });
}

}  // namespace ks::python
