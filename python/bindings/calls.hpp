#pragma once
// The module's calls, one file each, declared on the module by module.cpp. Each takes what the Python wrapper
// (kernelscope/__init__.py) made of its keywords: words as the CLI takes them ("" for not given), parameters
// as NAME=VALUE assignments.
#include <pybind11/pybind11.h>

#include <memory>

#include "engines.hpp"

namespace ks::python {

void bind_kernels(pybind11::module_& m);
void bind_run(pybind11::module_& m, std::shared_ptr<Engines> engines);
void bind_sim(pybind11::module_& m, std::shared_ptr<Engines> engines);
void bind_lab(pybind11::module_& m, std::shared_ptr<Engines> engines);
void bind_topo(pybind11::module_& m, std::shared_ptr<Engines> engines);
void bind_compile(pybind11::module_& m);

}  // namespace ks::python
