// gl_bounds_cuda: one thread per node runs gl_bound (gl_bound.hpp, shared verbatim with the CPU) with its
// scratch in device memory. The first, plainly correct form of the batch: a block per node with the Hungarian
// and the minimal scalar products spread over its threads in shared memory is the next step (docs/PERF.md).
#include <cuda_runtime.h>

#include <algorithm>

#include "core/cuda/check.cuh"
#include "core/cuda/device_buffer.cuh"
#include "core/error.hpp"
#include "topo/bnb/bound_batch_cuda.hpp"
#include "topo/bnb/gl_bound.hpp"

namespace ks::topo {

namespace {

using ks::cuda::check;
using ks::cuda::DeviceBuffer;

constexpr int kThreads = 128;
// Nodes per launch: their scratch (gl_full_scratch_size(n) int64 each, 15 kB at n = 20) stays under ~1 GB.
constexpr std::size_t kScratchBudgetBytes = std::size_t(1) << 30;

__global__ void gl_bounds_kernel(const std::int64_t* traffic, const std::int64_t* costs, int n, const int* orders,
                                 bool order_per_node, const int* locs, int depth, std::size_t nodes,
                                 std::int64_t* scratch, int scratch_per_node, std::int64_t* out) {
  const std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= nodes) return;
  const int* order = orders + (order_per_node ? k * std::size_t(n) : 0);
  out[k] = gl_bound(n, traffic, costs, order, locs + k * std::size_t(depth), depth,
                    scratch + k * std::size_t(scratch_per_node), nullptr);
}

template <class T>
DeviceBuffer upload(const T* data, std::size_t count, const char* what) {
  return ks::cuda::upload_array(data, count, what);
}

}  // namespace

std::vector<std::int64_t> gl_bounds_cuda(CudaContext& ctx, const std::int64_t* traffic, const std::int64_t* costs,
                                         int n, const std::vector<int>& orders, const std::vector<int>& locs,
                                         int depth, std::size_t nodes) {
  const bool per_node = orders.size() != std::size_t(n);
  if (per_node && orders.size() != nodes * std::size_t(n))
    throw Error(ErrorKind::Internal, "gl_bounds_cuda: orders are neither one nor one per node");
  if (locs.size() != nodes * std::size_t(depth))
    throw Error(ErrorKind::Internal, "gl_bounds_cuda: locations are not nodes x depth");
  std::vector<std::int64_t> out(nodes);
  if (nodes == 0) return out;
  ctx.make_current();
  const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream());
  const std::size_t nn = std::size_t(n) * std::size_t(n);
  const DeviceBuffer t = upload(traffic, nn, "the traffic");
  const DeviceBuffer c = upload(costs, nn, "the path costs");
  const int per = gl_full_scratch_size(n);
  const std::size_t batch =
      std::max<std::size_t>(1, std::min(nodes, kScratchBudgetBytes / (std::size_t(per) * sizeof(std::int64_t))));
  DeviceBuffer scratch(batch * std::size_t(per) * sizeof(std::int64_t), "the bounds' scratch");
  DeviceBuffer result(batch * sizeof(std::int64_t), "the bounds");
  for (std::size_t first = 0; first < nodes; first += batch) {
    const std::size_t count = std::min(batch, nodes - first);
    const DeviceBuffer o = per_node ? upload(orders.data() + first * std::size_t(n), count * std::size_t(n), "the orders")
                                    : upload(orders.data(), std::size_t(n), "the order");
    const DeviceBuffer l = upload(locs.data() + first * std::size_t(depth), count * std::size_t(depth), "the nodes");
    const unsigned blocks = unsigned((count + kThreads - 1) / kThreads);
    gl_bounds_kernel<<<blocks, kThreads, 0, stream>>>(t.as<std::int64_t>(), c.as<std::int64_t>(), n, o.as<int>(),
                                                      per_node, l.as<int>(), depth, count,
                                                      scratch.as<std::int64_t>(), per, result.as<std::int64_t>());
    ks::cuda::check_launch("gl_bounds_kernel");
    check(cudaMemcpyAsync(out.data() + first, result.get(), count * sizeof(std::int64_t), cudaMemcpyDeviceToHost,
                          stream),
          "copying the bounds back");
    check(cudaStreamSynchronize(stream), "computing the bounds");
  }
  return out;
}

}  // namespace ks::topo
