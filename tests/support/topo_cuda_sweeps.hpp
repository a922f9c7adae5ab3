#pragma once
// The GPU sweep tests' device and their one call: a request on the CPU or on CUDA (GPU 0), the rest of it equal.
#include <memory>
#include <string>

#include "support/shared_pool.hpp"
#include "topo/evaluation.hpp"

namespace ks::test {

inline CudaContext& topo_context() {
  static std::unique_ptr<CudaContext> c = CudaContext::create(0);
  return *c;
}

inline topo::EvalResult sweep_on(const topo::Problem& p, topo::EvalRequest r, Backend backend,
                                 const std::string& variant) {
  r.backend = backend;
  r.variant = backend == Backend::Cpu ? "" : variant;
  return topo::evaluate(p, r, {}, pool<0>(), backend == Backend::Cuda ? &topo_context() : nullptr);
}

}  // namespace ks::test
