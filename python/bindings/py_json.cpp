#include "py_json.hpp"

namespace ks::python {

namespace py = pybind11;

py::object to_python(const nlohmann::ordered_json& j) {
  switch (j.type()) {
    case nlohmann::ordered_json::value_t::null:
      return py::none();
    case nlohmann::ordered_json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case nlohmann::ordered_json::value_t::number_float:
      return py::float_(j.get<double>());
    case nlohmann::ordered_json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case nlohmann::ordered_json::value_t::array: {
      py::list list;
      for (const auto& x : j) list.append(to_python(x));
      return list;
    }
    case nlohmann::ordered_json::value_t::object: {
      py::dict dict;
      for (const auto& [key, value] : j.items()) dict[py::str(key)] = to_python(value);
      return dict;
    }
    case nlohmann::ordered_json::value_t::binary:
    case nlohmann::ordered_json::value_t::discarded:
      break;
  }
  return py::none();
}

}  // namespace ks::python
