#include "engines.hpp"

namespace ks::python {

Engine& Engines::get(unsigned threads) {
  std::lock_guard lock(mutex_);
  auto& engine = engines_[threads];
  if (!engine) engine = std::make_unique<Engine>(Engine::Options{threads});
  return *engine;
}

void Engines::abandon() {
  std::lock_guard lock(mutex_);
  for (auto& [threads, engine] : engines_) static_cast<void>(engine.release());  // left to the OS on purpose
  engines_.clear();
}

}  // namespace ks::python
