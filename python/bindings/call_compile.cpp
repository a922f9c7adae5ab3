// ks.compile: a user's kernel through the compiler service, as `kernelscope-cli compile` does
// (cli/cmd_compile.cpp), without a GPU. A kernel that does not compile is a ValueError listing the compiler's
// messages at the source's lines (the CLI's exit 2); otherwise the report is `compile --json`'s.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include "calls.hpp"
#include "core/error.hpp"
#include "report/compile_report_json.hpp"
#include "result.hpp"
#include "usercode/diagnostics.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::python {

namespace py = pybind11;

namespace {

Result compile(const std::string& source, const std::string& file_name, const std::string& family,
               const std::string& entry, const std::string& arch) {
  usercode::CompileRequest request;
  request.file_name = file_name;
  request.source = source;
  request.family = family;
  request.entry = entry;
  request.options.arch = arch;
  usercode::CompiledKernel k;
  {
    py::gil_scoped_release release;
    k = usercode::compile_user_kernel(request);
  }
  const usercode::CompiledModule& m = *k.module;
  std::vector<std::string> messages;
  for (const auto& d : m.diagnostics) messages.push_back(usercode::format_diagnostic(d));
  if (!m.ok) {
    const int errors = usercode::count_errors(m.diagnostics);
    std::string text =
        fmt::format("{} does not compile ({} error{})", file_name, errors, errors == 1 ? "" : "s");
    for (const auto& line : messages) text += "\n" + line;
    throw_usage(text, "fix the lines above and compile again");
  }
  Result result;
  result.notes = std::move(messages);  // warnings
  result.report_json = report::compile_facts_json(m);
  result.report_json["family"] = k.family ? nlohmann::ordered_json(to_string(*k.family)) : nullptr;
  return result;
}

}  // namespace

void bind_compile(py::module_& m) {
  m.def("compile", &compile, py::arg("source"), py::arg("file_name"), py::arg("family"), py::arg("entry"),
        py::arg("arch"));
}

}  // namespace ks::python
