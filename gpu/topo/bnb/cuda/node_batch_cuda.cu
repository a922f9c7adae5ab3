// make_cuda_node_evaluator: the batch dive's nodes on the GPU, a warp per node (bound_batch_cuda.hpp). The
// per-node work is an m x m matrix of sorted dot products then an m x m LAP: the lanes share the first (every
// entry of C is independent), the first lane runs the LAP and the branch with the CPU's own code (gl_bound.hpp,
// gl_branch.hpp), so that the reduced costs, and so the tree, are the CPU's to the last unit.
#include <cuda_runtime.h>

#include <algorithm>

#include "core/cuda/check.cuh"
#include "core/cuda/device_buffer.cuh"
#include "core/error.hpp"
#include "topo/bnb/bound_batch_cuda.hpp"
#include "topo/bnb/gl_branch.hpp"

namespace ks::topo {

namespace {

using ks::cuda::check;
using ks::cuda::DeviceBuffer;

constexpr int kWarp = 32;
constexpr int kThreadsPerBlock = 128;  // 4 nodes a block
constexpr std::size_t kBatchNodes = 8192;
// The nodes' scratch (gl_node_scratch_size(n) int64 each: 18 kB at n = 20) stays under this.
constexpr std::size_t kScratchBudgetBytes = std::size_t(1) << 30;

// Every lane of a warp has the same node (blockDim is a multiple of the warp), so a warp returns whole and the
// __syncwarp()s see all 32 lanes.
__global__ void evaluate_nodes_kernel(const std::int64_t* T, const std::int64_t* D, int n, const int* orders,
                                      const int* locs, const std::int64_t* floors, int depth, std::size_t nodes,
                                      std::int64_t best, bool reduced_cost_pruning, std::int64_t* scratch,
                                      int scratch_per_node, std::int64_t* bounds, int* lines, std::int64_t* lowers) {
  const std::size_t node = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  const int lane = int(threadIdx.x % kWarp);
  if (node >= nodes) return;
  const int m = n - depth;
  const int* order = orders + node * std::size_t(n);
  const int* loc = locs + node * std::size_t(depth);
  std::int64_t* s = scratch + node * std::size_t(scratch_per_node);
  const GlScratch g(n, s);
  std::int64_t* free_loc = s + gl_scratch_size(n);  // n
  std::int64_t* taken = free_loc + n;               // n
  std::int64_t* lin = taken + n;                    // n x n
  std::int64_t* reduced = lin + n * n;              // n x n (gl_node_scratch_size)
  if (lane == 0) gl_free_locations(n, loc, depth, taken, free_loc);
  __syncwarp();
  for (int cell = lane; cell < m * m; cell += kWarp)
    lin[cell] = gl_linear_entry(n, T, D, order, loc, depth, order[depth + cell / m], int(free_loc[cell % m]));
  for (int r = lane; r < m; r += kWarp) gl_flow_row(n, T, order, depth, r, g.flow_rows + r * (m - 1));
  for (int c = lane; c < m; c += kWarp) gl_distance_row(n, D, m, free_loc, c, g.dist_rows + c * (m - 1));
  __syncwarp();
  for (int cell = lane; cell < m * m; cell += kWarp) {
    const int r = cell / m, c = cell % m;
    g.C[cell] = gl_cost_entry(m, lin[cell], g.flow_rows + r * (m - 1), g.dist_rows + c * (m - 1));
  }
  __syncwarp();
  if (lane != 0) return;
  const std::int64_t fixed = gl_fixed_cost(n, T, D, order, loc, depth);
  const std::int64_t bound = gl_bound_from_costs(m, fixed, g.C, g.lap, g.u, g.v, reduced);
  int line = kNoBranch;
  bounds[node] = gl_finish_node(bound, reduced, m, floors[node], best, reduced_cost_pruning, line,
                                lowers + node * std::size_t(m));
  lines[node] = line;
}

class CudaNodeEvaluator final : public NodeEvaluator {
 public:
  explicit CudaNodeEvaluator(CudaContext& ctx) : ctx_(ctx) {}
  // The buffers are freed on their own device, whichever thread (and current device) destroys the evaluator:
  // with several GPUs (--gpus 0,1) the last one made current is another's.
  ~CudaNodeEvaluator() override {
    try {
      ctx_.make_current();
    } catch (...) {  // a lost device: the frees fail alike, and a destructor must not throw
    }
  }

  void load(const std::int64_t* traffic, const std::int64_t* costs, int n) override {
    ctx_.make_current();
    const std::size_t nn = std::size_t(n) * std::size_t(n);
    n_ = n;
    traffic_ = ks::cuda::upload_array(traffic, nn, "the traffic");
    costs_ = ks::cuda::upload_array(costs, nn, "the path costs");
    per_node_ = gl_node_scratch_size(n);
    capacity_ = std::max<std::size_t>(
        1, std::min(kBatchNodes, kScratchBudgetBytes / (std::size_t(per_node_) * sizeof(std::int64_t))));
    scratch_ = DeviceBuffer(capacity_ * std::size_t(per_node_) * sizeof(std::int64_t), "the nodes' scratch");
    orders_ = DeviceBuffer(capacity_ * std::size_t(n) * sizeof(int), "the nodes' orders");
    locs_ = DeviceBuffer(capacity_ * std::size_t(n) * sizeof(int), "the nodes' locations");
    floors_ = DeviceBuffer(capacity_ * sizeof(std::int64_t), "the nodes' floors");
    bounds_ = DeviceBuffer(capacity_ * sizeof(std::int64_t), "the bounds");
    lines_ = DeviceBuffer(capacity_ * sizeof(int), "the branches");
    lowers_ = DeviceBuffer(capacity_ * std::size_t(n) * sizeof(std::int64_t), "the children's bounds");
    // A node without a branch leaves its lowers unwritten; they are copied back all the same (and not read).
    // On the context's stream: that stream does not wait for the legacy default stream, where a plain
    // cudaMemset could land after the first launch had written real bounds.
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx_.stream());
    check(cudaMemsetAsync(lowers_.get(), 0, lowers_.bytes(), stream), "clearing the children's bounds");
    check(cudaStreamSynchronize(stream), "clearing the children's bounds");
  }

  void evaluate(const NodeBatch& b, NodeBatchResult& out) override {
    if (n_ == 0) throw Error(ErrorKind::Internal, "CudaNodeEvaluator: evaluate before load");
    if (b.depth < 0 || b.depth >= n_)
      throw Error(ErrorKind::Internal, "CudaNodeEvaluator: a node's depth is outside 0 .. n - 1");
    const std::size_t m = std::size_t(n_ - b.depth), n = std::size_t(n_), depth = std::size_t(b.depth);
    out.bounds.resize(b.nodes);
    out.lines.resize(b.nodes);
    out.lowers.resize(b.nodes * m);
    ctx_.make_current();
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx_.stream());
    for (std::size_t first = 0; first < b.nodes; first += capacity_) {
      const std::size_t count = std::min(capacity_, b.nodes - first);
      check(cudaMemcpyAsync(orders_.get(), b.orders + first * n, count * n * sizeof(int), cudaMemcpyHostToDevice,
                            stream),
            "copying the nodes' orders");
      if (depth)
        check(cudaMemcpyAsync(locs_.get(), b.locs + first * depth, count * depth * sizeof(int),
                              cudaMemcpyHostToDevice, stream),
              "copying the nodes' locations");
      check(cudaMemcpyAsync(floors_.get(), b.floors + first, count * sizeof(std::int64_t), cudaMemcpyHostToDevice,
                            stream),
            "copying the nodes' floors");
      const std::size_t threads = count * kWarp;
      const unsigned blocks = unsigned((threads + kThreadsPerBlock - 1) / kThreadsPerBlock);
      evaluate_nodes_kernel<<<blocks, kThreadsPerBlock, 0, stream>>>(
          traffic_.as<std::int64_t>(), costs_.as<std::int64_t>(), n_, orders_.as<int>(), locs_.as<int>(),
          floors_.as<std::int64_t>(), b.depth, count, b.best, b.reduced_cost_pruning, scratch_.as<std::int64_t>(),
          per_node_, bounds_.as<std::int64_t>(), lines_.as<int>(), lowers_.as<std::int64_t>());
      ks::cuda::check_launch("evaluate_nodes_kernel");
      check(cudaMemcpyAsync(out.bounds.data() + first, bounds_.get(), count * sizeof(std::int64_t),
                            cudaMemcpyDeviceToHost, stream),
            "copying the bounds back");
      check(cudaMemcpyAsync(out.lines.data() + first, lines_.get(), count * sizeof(int), cudaMemcpyDeviceToHost,
                            stream),
            "copying the branches back");
      check(cudaMemcpyAsync(out.lowers.data() + first * m, lowers_.get(), count * m * sizeof(std::int64_t),
                            cudaMemcpyDeviceToHost, stream),
            "copying the children's bounds back");
      check(cudaStreamSynchronize(stream), "evaluating the nodes");
    }
  }

  std::size_t batch_nodes() const override { return capacity_ ? capacity_ : kBatchNodes; }
  std::string device() const override { return ctx_.device().name; }

 private:
  CudaContext& ctx_;
  int n_ = 0, per_node_ = 0;
  std::size_t capacity_ = 0;
  DeviceBuffer traffic_, costs_, scratch_, orders_, locs_, floors_, bounds_, lines_, lowers_;
};

}  // namespace

std::unique_ptr<NodeEvaluator> make_cuda_node_evaluator(CudaContext& ctx) {
  return std::make_unique<CudaNodeEvaluator>(ctx);
}

}  // namespace ks::topo
