#pragma once
// Shared by the "Why" explainer's tests: the finding of an id, and reports made by hand with only what a
// test's pitfall needs (each test states its numbers; none comes from the explainer).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/device_models.hpp"
#include "engine/engine.hpp"
#include "report/why_finding.hpp"

namespace ks::why_test {

inline const report::WhyFinding* find(const std::vector<report::WhyFinding>& findings,
                                      const std::string& id) {
  const auto it = std::find_if(findings.begin(), findings.end(), [&](const auto& f) { return f.id == id; });
  return it == findings.end() ? nullptr : &*it;
}

inline bool has(const std::vector<report::WhyFinding>& findings, const std::string& id) {
  return find(findings, id) != nullptr;
}

inline const DeviceInfo& h100() {
  return device_model("h100").limits;
}

// A CUDA run of a stencil of the registry as a report carries it: kernel, variant, image, block, a median of
// 1 ms, and the roof at 20% (neither near nor, for the roofline detector, relevant: peaks unknown).
inline RunReport cuda_stencil_report(const std::string& kernel, const std::string& variant, int width,
                                     int height, BlockShape block) {
  RunReport r;
  r.kernel = kernel;
  r.variant = variant;
  r.backend = Backend::Cuda;
  r.device = "H100 SXM (model)";
  r.shape = ImageShape{width, height, 1, ElemType::U8};
  r.block = block;
  r.kernel_time.count = 5;
  r.kernel_time.min_ms = r.kernel_time.median_ms = r.kernel_time.p95_ms = 1.0;
  r.roofline.percent_of_roof = 20;
  return r;
}

// An occupancy report as the GPU would give it for `threads` per block at `registers` per thread.
inline OccupancyReport occupancy(int threads, int registers, int active_blocks, double occupancy,
                                 const std::string& limiter) {
  OccupancyReport o;
  o.kernel_name = "naive_window";
  o.block_threads = threads;
  o.registers_per_thread = registers;
  o.active_blocks_per_sm = active_blocks;
  o.occupancy = occupancy;
  o.limiter = limiter;
  return o;
}

}  // namespace ks::why_test
