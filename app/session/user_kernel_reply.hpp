#pragma once
// A run of a user's kernel whose reply is not Ok, as the error the app shows: the worker's words (a fault, a
// time-out, a refused launch), with what to do next. The stencil document and the Lab both run users' kernels.
#include "usercode/run/launch_plan.hpp"

namespace ks::app {

// Usage Error for a launch the worker refused, Device Error for a fault, a time-out or a dying worker.
void throw_unless_run_ok(const usercode::WorkerReply& reply);

}  // namespace ks::app
