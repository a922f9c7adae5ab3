#pragma once
// What every call of the module returns: the arrays and the report (the CLI's JSON for the same request). The
// report is made on first read, so that a call that never reads it does not pay for it: ks.run gives the figures
// and make_report builds the JSON from them then (on a tiny image building it cost more than the rest of the call
// together: docs/PERF.md "Python: ks.run per call"); every report becomes Python objects on first read.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ks::python {

struct Result {
  pybind11::object output =
      pybind11::none();            // run: the image; sim: the final state; lab: the image it makes
  pybind11::dict outputs;          // lab: the arrays by name
  pybind11::list frames;           // sim: the states every `every` steps, on request
  std::vector<std::string> notes;  // what the CLI prints as notes (e.g. why the CPU backend ran)
  nlohmann::ordered_json report_json;                  // the report, or null while make_report is set
  std::function<nlohmann::ordered_json()> make_report;  // builds report_json on first read, when set
  pybind11::object report_cache = pybind11::none();
  std::uintptr_t input_address = 0;  // run: the memory the engine read (tests check it is the array's)

  // The report's JSON, built now when it was left to make_report.
  const nlohmann::ordered_json& report();
};

void bind_result(pybind11::module_& m);

}  // namespace ks::python
