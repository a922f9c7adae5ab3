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

 private:
  std::mutex mutex_;
  std::map<unsigned, std::unique_ptr<Engine>> engines_;
};

}  // namespace ks::python
