#pragma once
// A user kernel's run that did not end Ok, as the app's documents report it (the image document's stencil runs,
// the simulation's step kernels): the worker's words, a hint, and the kind the panels show it as.
#include "usercode/run/launch_plan.hpp"

namespace ks::app {

// Throws the Error a reply that is not Ok stands for: Usage for a refused launch (a block the kernel cannot run),
// Device for a fault, a time-out or a worker that died. Does nothing for an Ok reply.
void throw_unless_ok(const usercode::WorkerReply& reply);

}  // namespace ks::app
