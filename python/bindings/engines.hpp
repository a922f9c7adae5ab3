#pragma once
// The module's engines: one per CPU thread count asked for (threads=0: every core), made on first use and
// kept, so that a call does not start a thread pool or a CUDA context again. The module holds the one Engines
// object.
#include <map>
#include <memory>
#include <mutex>

#include "engine/engine.hpp"

namespace ks::python {

class Engines {
 public:
  Engine& get(unsigned threads);

  // At interpreter exit (an atexit handler of the module): the engines made so far are left to the operating
  // system, never destroyed. Destroyed during the interpreter's finalization, they would join their threads and
  // free their CUDA streams and buffers after CuPy's and Numba's exit handlers have run and while the CUDA
  // libraries tear down, in an order nobody controls (a suspect of the crash at the end of the Python tests on the
  // GPU machine); the process ends a moment later and the driver frees it all. A call after this makes new ones.
  void abandon();

 private:
  std::mutex mutex_;
  std::map<unsigned, std::unique_ptr<Engine>> engines_;
};

}  // namespace ks::python
