#include "long_work.hpp"

#include "py_errors.hpp"

namespace ks::python {

namespace py = pybind11;

LongWork::LongWork(py::object progress) : progress_(std::move(progress)) {}

void LongWork::report(double fraction, const std::string& text) {
  if (interrupt_.raised()) cancel = true;
  if (progress_.is_none()) return;
  std::lock_guard lock(mutex_);
  if (failure_) return;
  const auto now = std::chrono::steady_clock::now();
  if (fraction < 1 && now - last_call_ < std::chrono::milliseconds(100)) return;
  last_call_ = now;
  py::gil_scoped_acquire gil;
  try {
    progress_(fraction, text);
  } catch (py::error_already_set& e) {
    failure_.emplace(std::move(e));
    cancel = true;
  }
}

void LongWork::finish() {
  if (failure_) {
    py::error_already_set e = std::move(*failure_);
    failure_.reset();
    throw e;
  }
  if (interrupt_.raised()) raise_keyboard_interrupt();
}

}  // namespace ks::python
