// The extension module kernelscope._kernelscope: the calls of `import kernelscope` (kernelscope/__init__.py
// wraps them in the documented keyword signatures). One Engines object, shared by the calls, holds the
// engines.
#include <pybind11/pybind11.h>

#include "calls.hpp"
#include "py_device_arrays.hpp"
#include "py_errors.hpp"
#include "result.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_kernelscope, m) {
  m.doc() = "kernelscope: GPU kernels on numpy arrays (see docs/python.md)";
  ks::python::register_error_translation();
  ks::python::bind_result(m);
  ks::python::bind_device_array(m);
  auto engines = std::make_shared<ks::python::Engines>();
  ks::python::bind_kernels(m);
  ks::python::bind_run(m, engines);
  ks::python::bind_sim(m, engines);
  ks::python::bind_lab(m, engines);
  ks::python::bind_topo(m, engines);
  ks::python::bind_compile(m);
  // The engines' threads and CUDA contexts are left to the OS when the interpreter exits (Engines::abandon).
  py::module_::import("atexit").attr("register")(py::cpp_function([engines] { engines->abandon(); }));
  // Whether DLPack capsules go in and out (the build found Debian's libdlpack-dev); tests skip those cases without.
#if KS_HAVE_DLPACK
  m.attr("has_dlpack") = true;
#else
  m.attr("has_dlpack") = false;
#endif
}
