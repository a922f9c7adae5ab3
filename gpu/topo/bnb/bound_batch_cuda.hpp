#pragma once
// The bounds of many nodes at once on a GPU: the CUDA side of gl_bounds (bnb.hpp), the same nodes in the same
// layout, the same bound to the last unit (gl_bound.hpp runs verbatim on the device, exact 64-bit integers).
// No CUDA headers; a build without CUDA throws the no-CUDA error (bound_batch_cuda_nocuda.cpp).
#include <cstdint>
#include <memory>
#include <vector>

#include "core/cuda_context.hpp"
#include "topo/bnb/node_batch.hpp"

namespace ks::topo {

// traffic, costs: n x n. orders: n entries (one order for every node) or nodes x n (each node its own, as the
// dive's choice of branching makes them). locs: nodes x depth. One GPU thread per node, its scratch in device
// memory; batches of any size (split to fit the device).
std::vector<std::int64_t> gl_bounds_cuda(CudaContext& ctx, const std::int64_t* traffic, const std::int64_t* costs,
                                         int n, const std::vector<int>& orders, const std::vector<int>& locs,
                                         int depth, std::size_t nodes);

// The batch dive's evaluator on this context's GPU (node_batch.hpp): a warp per node in shared memory, the
// linear part, the sorted rows, C, the LAP (warp_lap.cuh: lap_solve's steps over the lanes, the same potentials)
// and the branch spread over its lanes; up to 8192 nodes a launch. The context must outlive it.
std::unique_ptr<NodeEvaluator> make_cuda_node_evaluator(CudaContext& ctx);

}  // namespace ks::topo
