#pragma once
// The worker process's main loop (`kernelscope-cli worker`): says hello with its device, then answers one JSON
// request per line on `in` with progress lines and one reply on `out` (protocol: worker_client.cpp). Returns the
// process's exit code: 0 when `in` ends, 3 after a fault (the CUDA context is gone, so the worker ends and its
// client starts a fresh one), 1 without a usable device (after saying so).
#include <iosfwd>

namespace ks::usercode {

int serve_worker(std::istream& in, std::ostream& out);

}  // namespace ks::usercode
