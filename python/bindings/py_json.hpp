#pragma once
// A report's JSON as Python objects (dict, list, str, int, float, bool, None), keys in the report's order.
#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

namespace ks::python {

pybind11::object to_python(const nlohmann::ordered_json& j);

}  // namespace ks::python
