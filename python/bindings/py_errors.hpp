#pragma once
// How the module's failures reach Python: ks::Error by kind (usage -> ValueError with the CLI's message and
// hint, file -> OSError, device and bugs -> RuntimeError, memory -> MemoryError, cancelled ->
// KeyboardInterrupt).
#include <pybind11/pybind11.h>

namespace ks::python {

void register_error_translation();

// Raises KeyboardInterrupt in Python (Ctrl-C stopped the work).
[[noreturn]] void raise_keyboard_interrupt();

}  // namespace ks::python
