#pragma once
// What a sweep request covers, in the units the backends take: the placement source and its items (runs of the
// sweep plan, sample numbers or list rows), cut into chunks. Internal to gpu/topo: evaluate() plans it, the
// coordinator hands its chunks out, and every worker (a thread of this process or another MPI rank) plans the
// same work from the same request.
#include <cstdint>
#include <utility>
#include <vector>

#include "topo/evaluation.hpp"
#include "topo/sweep/sweep_backend.hpp"
#include "topo/sweep/sweep_plan.hpp"

namespace ks::topo {

struct Work {
  PlacementSource source;  // points into this Work: bind() after copying or moving it
  SweepPlan plan;
  std::vector<std::uint8_t> listed;
  std::uint64_t first = 0, end = 0;       // items
  std::uint64_t placements_per_item = 1;  // All: run size (boundary runs are partly outside the range)
  std::uint64_t placements = 0;           // in the request

  void bind() {
    source.plan = &plan;
    source.listed = &listed;
  }
  // Placements of the request that items [a, b) visit.
  std::uint64_t placements_in(std::uint64_t a, std::uint64_t b) const {
    return source.mode == PlacementMode::All ? plan.placements_in(a, b) : b - a;
  }
};

// Usage Errors for impossible requests (see evaluate()); `pool` and `cuda` only measure how long an exhaustive
// sweep beyond kMaxExhaustiveNodes would take, for the message.
Work plan_work(const Problem& p, const EvalRequest& r, ThreadPool& pool, CudaContext* cuda);
void check_request(const Problem& p, const EvalRequest& r);

// The chunks of a sweep: items [first, end) cut into pieces of `per_chunk` items (the last may be shorter). The
// cut depends on the request and the backend's kind, never on how many workers share it, so a sweep's results
// are the same on one device, several devices or several ranks: chunks are reduced one by one and merged in
// chunk order.
struct ChunkLayout {
  std::uint64_t first = 0, end = 0, per_chunk = 1;

  std::uint64_t count() const { return end > first ? (end - first + per_chunk - 1) / per_chunk : 0; }
  std::pair<std::uint64_t, std::uint64_t> items(std::uint64_t chunk) const {
    const std::uint64_t a = first + chunk * per_chunk;
    return {a, std::min(end, a + per_chunk)};
  }
};

// Chunks of about `chunk_evaluations` (0: the backend's default batch) evaluations each.
ChunkLayout chunk_layout(const Problem& p, const Work& w, std::uint64_t chunk_evaluations);

// Which passes a request runs, and the evaluations each pass does per placement.
struct PassPlan {
  bool histogram = false;  // a Histogram pass runs (asked for, or needed by the CUDA top pass)
  bool keep_histogram = false;  // ... and its result is reported
  bool top = false, cube = false;
};
PassPlan pass_plan(const EvalRequest& r);
std::uint64_t evaluations_per_placement(const Problem& p, Pass pass);
const char* pass_name(Pass pass);  // "sweep", "histogram", "top", "cube"

}  // namespace ks::topo
