#pragma once
// Shared by the simulation tests (tests/cpu, tests/gpu): an engine, requests built from "name=value"
// assignments, the usage Error a call throws, and the largest difference of two f32 fields.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/image.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "sim/simulation.hpp"
#include "support/test_support.hpp"

namespace ks::sim_test {

// One engine for the test binary, with a thread per core.
inline Engine& engine() {
  static Engine e(Engine::Options{0});
  return e;
}

// `params` with `assignments` ("name=value") set.
inline ParamSet with(ParamSet params, const std::vector<std::string>& assignments) {
  for (const auto& a : assignments) params.set_assignment(a);
  return params;
}

inline SimulationRequest sim_request(const std::string& kernel, const std::vector<std::string>& assignments,
                                     Backend backend, const std::string& variant, int w = 0, int h = 0,
                                     std::optional<BlockShape> block = std::nullopt) {
  SimulationRequest r;
  r.kernel = kernel;
  r.params = with(KernelRegistry::builtin().get(kernel).default_params(), assignments);
  r.backend = backend;
  r.variant = variant;
  r.width = w;
  r.height = h;
  r.block = block;
  return r;
}

using test::usage_error;  // support/test_support.hpp

inline double max_difference(const Image& a, const Image& b) {
  const auto x = a.elements<float>(), y = b.elements<float>();
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) d = std::max(d, double(std::abs(x[i] - y[i])));
  return d;
}

// The tests that run every CUDA variant with several block shapes give Life's multistep (one warp across each
// tile: blocks of 32 x N warps, N = 1 .. 8; tests/gpu/test_sim_multistep_cuda.cpp checks the refusal of others)
// a block of as many whole warps as `block` has threads, and every other variant `block` as it is.
inline BlockShape block_for_variant(const std::string& variant, BlockShape block) {
  if (variant != "multistep") return block;
  return BlockShape{32, std::clamp(block.x * block.y / 32, 1, 8)};
}
inline std::optional<BlockShape> block_for_variant(const std::string& variant, std::optional<BlockShape> block) {
  if (!block) return block;
  return block_for_variant(variant, *block);
}

}  // namespace ks::sim_test
