#include "engines.hpp"

namespace ks::python {

Engine& Engines::get(unsigned threads) {
  std::lock_guard lock(mutex_);
  auto& engine = engines_[threads];
  if (!engine) engine = std::make_unique<Engine>(Engine::Options{threads});
  return *engine;
}

}  // namespace ks::python
