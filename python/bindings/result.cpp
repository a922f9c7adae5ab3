#include "result.hpp"

#include <pybind11/stl.h>

#include "py_json.hpp"

namespace ks::python {

namespace py = pybind11;

const nlohmann::ordered_json& Result::report() {
  if (make_report) {
    report_json = make_report();
    make_report = nullptr;
  }
  return report_json;
}

void bind_result(py::module_& m) {
  py::class_<Result>(m, "Result", "What a call returns: output(s), report, notes")
      .def_readonly("output", &Result::output)
      .def_readonly("outputs", &Result::outputs)
      .def_readonly("frames", &Result::frames)
      .def_readonly("notes", &Result::notes)
      .def_property_readonly("report",
                             [](Result& r) {
                               if (r.report_cache.is_none()) r.report_cache = to_python(r.report());
                               return r.report_cache;
                             })
      .def_readonly("_input_address", &Result::input_address)
      .def("__repr__", [](Result& r) {
        const auto& j = r.report();
        const std::string kernel =
            j.contains("kernel") ? j["kernel"].get<std::string>() : std::string("topo");
        return "<kernelscope.Result " + kernel + ">";
      });
}

}  // namespace ks::python
