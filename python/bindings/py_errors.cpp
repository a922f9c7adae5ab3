#include "py_errors.hpp"

#include <Python.h>

#include "core/error.hpp"

namespace ks::python {

namespace {

PyObject* python_type(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage:
      return PyExc_ValueError;
    case ErrorKind::Io:
      return PyExc_OSError;
    case ErrorKind::OutOfMemory:
      return PyExc_MemoryError;
    case ErrorKind::Cancelled:
      return PyExc_KeyboardInterrupt;
    case ErrorKind::Device:
    case ErrorKind::Internal:
      return PyExc_RuntimeError;
  }
  return PyExc_RuntimeError;
}

}  // namespace

void register_error_translation() {
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(python_type(e.kind()), e.full_message().c_str());
    }
  });
}

void raise_keyboard_interrupt() {
  PyErr_SetNone(PyExc_KeyboardInterrupt);
  throw pybind11::error_already_set();
}

}  // namespace ks::python
