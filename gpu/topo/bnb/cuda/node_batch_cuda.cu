// make_cuda_node_evaluator: the batch dive's nodes on the GPU, a warp per node (bound_batch_cuda.hpp),
// everything of a node in its warp's share of shared memory. The per-node work is an m x m matrix of sorted
// dot products, an m x m LAP and the choice of branch; the lanes share all three: the matrix's entries, the
// Hungarian's columns (warp_lap.cuh) and the branch's rows and columns. Each step does what the CPU's code
// does (gl_bound.hpp, hungarian.hpp, gl_branch.hpp) with the same exact integers and the same tie-breaks, so
// that the reduced costs, and so the tree, are the CPU's to the last unit.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include "core/cuda/check.cuh"
#include "core/cuda/device_buffer.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/cuda/pinned_host.cuh"
#include "core/error.hpp"
#include "topo/bnb/bound_batch_cuda.hpp"
#include "topo/bnb/cuda/warp_lap.cuh"
#include "topo/bnb/gl_branch.hpp"

namespace ks::topo {

namespace {

using ks::cuda::check;
using ks::cuda::DeviceBuffer;

constexpr int kWarp = warp::kLanes;
constexpr int kMostWarpsPerBlock = 4;
constexpr std::size_t kBatchNodes = 8192;

// A node's shared memory, int64 entries, for n facilities of which m are free: its free locations (n, the
// first m used), the sorted flow and distance rows (m x (m - 1) each), C (m x m) and the Hungarian's scratch.
KS_HD int node_shared_entries(int n, int m) {
  return n + 2 * m * (m - 1) + m * m + lap_scratch_size(m) + 2 * m;
}

// The rows first (rows before columns, the first of equals, as gl_choose_branch): the free facility or
// location with the fewest children below `best`, kNoBranch when that is none.
__device__ int choose_branch(const std::int64_t* C, const std::int64_t* u, const std::int64_t* v, int m,
                             std::int64_t bound, std::int64_t best, int lane) {
  std::int64_t fewest_rows = INT64_MAX, fewest_columns = INT64_MAX;
  int row = 0, column = 0;
  for (int r = lane; r < m; r += kWarp) {
    int left = 0;
    for (int c = 0; c < m; ++c) left += bound + (C[r * m + c] - u[r] - v[c]) < best;
    if (left < fewest_rows) fewest_rows = left, row = r;
  }
  for (int c = lane; c < m; c += kWarp) {
    int left = 0;
    for (int r = 0; r < m; ++r) left += bound + (C[r * m + c] - u[r] - v[c]) < best;
    if (left < fewest_columns) fewest_columns = left, column = c;
  }
  warp::first_minimum(fewest_rows, row);
  warp::first_minimum(fewest_columns, column);
  if (fewest_columns < fewest_rows) return fewest_columns == 0 ? kNoBranch : m + column;
  return fewest_rows == 0 ? kNoBranch : row;
}

// Every lane of a warp has the same node (blockDim is a multiple of the warp), so a warp returns whole and
// the warp's synchronisations see all 32 lanes.
__global__ void evaluate_nodes_kernel(const std::int64_t* T, const std::int64_t* D, int n, const int* orders,
                                      const int* locs, const std::int64_t* floors, int depth,
                                      std::size_t nodes, std::int64_t best, bool reduced_cost_pruning,
                                      std::int64_t* bounds, int* lines, std::int64_t* lowers) {
  extern __shared__ std::int64_t shared[];
  const int warp_in_block = int(threadIdx.x) / kWarp, lane = int(threadIdx.x) % kWarp;
  const std::size_t node = std::size_t(blockIdx.x) * (blockDim.x / kWarp) + std::size_t(warp_in_block);
  if (node >= nodes) return;
  const int m = n - depth;
  const int* order = orders + node * std::size_t(n);
  const int* loc = locs + node * std::size_t(depth);
  std::int64_t* free_loc = shared + std::size_t(warp_in_block) * std::size_t(node_shared_entries(n, m));
  std::int64_t* flow_rows = free_loc + n;
  std::int64_t* dist_rows = flow_rows + m * (m - 1);
  std::int64_t* C = dist_rows + m * (m - 1);
  std::int64_t* lap = C + m * m;
  std::int64_t* u = lap + lap_scratch_size(m);
  std::int64_t* v = u + m;
  // The free locations, ascending: a ballot over the locations, a word of lanes at a time.
  for (int base = 0, count = 0; base < n; base += kWarp) {
    const int l = base + lane;
    bool taken = false;
    for (int a = 0; a < depth; ++a) taken |= loc[a] == l;
    const unsigned free_mask = __ballot_sync(warp::kFullWarp, l < n && !taken);
    if (l < n && !taken) free_loc[count + __popc(free_mask & ((1u << lane) - 1u))] = l;
    count += __popc(free_mask);
  }
  __syncwarp();
  for (int r = lane; r < m; r += kWarp) gl_flow_row(n, T, order, depth, r, flow_rows + r * (m - 1));
  for (int c = lane; c < m; c += kWarp) gl_distance_row(n, D, m, free_loc, c, dist_rows + c * (m - 1));
  __syncwarp();
  for (int cell = lane; cell < m * m; cell += kWarp) {
    const int r = cell / m, c = cell % m;
    const std::int64_t linear =
        gl_linear_entry(n, T, D, order, loc, depth, order[depth + r], int(free_loc[c]));
    C[cell] = gl_cost_entry(m, linear, flow_rows + r * (m - 1), dist_rows + c * (m - 1));
  }
  // The fixed facilities among themselves (gl_fixed_cost), a row of them a lane.
  std::int64_t fixed = 0;
  for (int a = lane; a < depth; a += kWarp) {
    const int fa = order[a], la = loc[a];
    for (int b = 0; b < depth; ++b) fixed += T[fa * n + order[b]] * D[la * n + loc[b]];
  }
  fixed = warp::sum(fixed);
  __syncwarp();
  std::int64_t bound = fixed + warp::lap_solve(C, m, lap, u, v, lane);
  // gl_finish_node, its branch's counts and children over the lanes.
  int line = kNoBranch;
  if (m > 1) {
    if (bound < floors[node]) bound = floors[node];
    if (bound < best) {
      line = reduced_cost_pruning ? choose_branch(C, u, v, m, bound, best, lane) : 0;
      if (line != kNoBranch)
        for (int k = lane; k < m; k += kWarp) {
          int r = 0, c = 0;
          gl_branch_child(line, m, k, r, c);
          lowers[node * std::size_t(m) + std::size_t(k)] = bound + (C[r * m + c] - u[r] - v[c]);
        }
    }
  }
  if (lane == 0) {
    bounds[node] = bound;
    lines[node] = line;
  }
}

// A launch's nodes and results each in one block of memory, so that each way takes one copy (from and to
// pinned host memory): the floors, orders and locations in; the bounds, children's bounds and branches out.
// The 64-bit arrays come first, so every array is aligned.
struct PackedBatch {
  std::size_t floors = 0, orders, locs, in_bytes;
  std::size_t bounds = 0, lowers, lines, out_bytes;
  PackedBatch(std::size_t count, std::size_t n, std::size_t depth)
      : orders(count * sizeof(std::int64_t)),
        locs(orders + count * n * sizeof(int)),
        in_bytes(locs + count * depth * sizeof(int)),
        lowers(count * sizeof(std::int64_t)),
        lines(lowers + count * (n - depth) * sizeof(std::int64_t)),
        out_bytes(lines + count * sizeof(int)) {}
};

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
    capacity_ = kBatchNodes;
    // Deeper nodes need less: the launch takes the share of the batch's depth, warps_per_block.
    const std::size_t root_bytes = std::size_t(node_shared_entries(n, n)) * sizeof(std::int64_t);
    const std::size_t optin = ctx_.device().shared_memory_per_block_optin;
    if (root_bytes > optin)
      throw Error(ErrorKind::Internal, "CudaNodeEvaluator: a node of " + std::to_string(n) +
                                           " facilities needs more shared memory than a block has");
    check(
        cudaFuncSetAttribute(evaluate_nodes_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(optin)),
        "allowing the node kernel its shared memory");
    optin_ = optin;
    if (!timer_) timer_ = std::make_unique<ks::cuda::EventTimer>(static_cast<cudaStream_t>(ctx_.stream()));
    // Up to 16 threads feed each GPU and branch on the CPU between batches: one waiting for its batch sleeps,
    // leaving its core to the others, rather than spinning as a stream synchronisation does.
    if (!copied_) copied_ = std::make_unique<ks::cuda::Event>(cudaEventBlockingSync | cudaEventDisableTiming);
    // Depth 0 needs the most room both ways.
    const PackedBatch largest(capacity_, std::size_t(n), 0),
        deepest(capacity_, std::size_t(n), std::size_t(n));
    const std::size_t in_bytes = std::max(largest.in_bytes, deepest.in_bytes);
    in_ = DeviceBuffer(in_bytes, "the nodes");
    out_ = DeviceBuffer(largest.out_bytes, "the nodes' bounds");
    host_in_ = ks::cuda::PinnedHostBuffer(in_bytes, "pinned host memory for the nodes");
    host_out_ = ks::cuda::PinnedHostBuffer(largest.out_bytes, "pinned host memory for the nodes' bounds");
    // A node without a branch leaves its children's bounds unwritten; they are copied back all the same (and
    // not read). On the context's stream: that stream does not wait for the legacy default stream, where a
    // plain cudaMemset could land after the first launch had written real bounds.
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx_.stream());
    check(cudaMemsetAsync(out_.get(), 0, out_.bytes(), stream), "clearing the children's bounds");
    check(cudaStreamSynchronize(stream), "clearing the children's bounds");
  }

  void evaluate(const NodeBatch& b, NodeBatchResult& out) override {
    if (n_ == 0) throw Error(ErrorKind::Internal, "CudaNodeEvaluator: evaluate before load");
    if (b.depth < 0 || b.depth >= n_)
      throw Error(ErrorKind::Internal, "CudaNodeEvaluator: a node's depth is outside 0 .. n - 1");
    const auto started = std::chrono::steady_clock::now();
    const std::size_t m = std::size_t(n_ - b.depth), n = std::size_t(n_), depth = std::size_t(b.depth);
    out.bounds.resize(b.nodes);
    out.lines.resize(b.nodes);
    out.lowers.resize(b.nodes * m);
    ctx_.make_current();
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx_.stream());
    for (std::size_t first = 0; first < b.nodes; first += capacity_) {
      const std::size_t count = std::min(capacity_, b.nodes - first);
      const PackedBatch at(count, n, depth);
      auto* in = host_in_.as<std::byte>();
      std::memcpy(in + at.floors, b.floors + first, count * sizeof(std::int64_t));
      std::memcpy(in + at.orders, b.orders + first * n, count * n * sizeof(int));
      if (depth) std::memcpy(in + at.locs, b.locs + first * depth, count * depth * sizeof(int));
      check(cudaMemcpyAsync(in_.get(), in, at.in_bytes, cudaMemcpyHostToDevice, stream), "copying the nodes");
      auto* device_in = in_.as<std::byte>();
      auto* device_out = out_.as<std::byte>();
      const std::size_t node_bytes = std::size_t(node_shared_entries(n_, int(m))) * sizeof(std::int64_t);
      const std::size_t warps = std::min<std::size_t>(kMostWarpsPerBlock, optin_ / node_bytes);
      const unsigned blocks = unsigned((count + warps - 1) / warps);
      timer_->start();
      evaluate_nodes_kernel<<<blocks, unsigned(warps * kWarp), warps * node_bytes, stream>>>(
          traffic_.as<std::int64_t>(), costs_.as<std::int64_t>(), n_,
          reinterpret_cast<const int*>(device_in + at.orders),
          reinterpret_cast<const int*>(device_in + at.locs),
          reinterpret_cast<const std::int64_t*>(device_in + at.floors), b.depth, count, b.best,
          b.reduced_cost_pruning, reinterpret_cast<std::int64_t*>(device_out + at.bounds),
          reinterpret_cast<int*>(device_out + at.lines),
          reinterpret_cast<std::int64_t*>(device_out + at.lowers));
      ks::cuda::check_launch("evaluate_nodes_kernel");
      timer_->stop();
      auto* result = host_out_.as<std::byte>();
      check(cudaMemcpyAsync(result, device_out, at.out_bytes, cudaMemcpyDeviceToHost, stream),
            "copying the bounds back");
      copied_->record(stream);
      check(cudaEventSynchronize(copied_->get()), "evaluating the nodes");
      std::memcpy(out.bounds.data() + first, result + at.bounds, count * sizeof(std::int64_t));
      std::memcpy(out.lines.data() + first, result + at.lines, count * sizeof(int));
      std::memcpy(out.lowers.data() + first * m, result + at.lowers, count * m * sizeof(std::int64_t));
      time_.device_s += timer_->elapsed_ms() / 1e3;
      ++time_.batches;
    }
    time_.nodes += b.nodes;
    time_.evaluate_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }

  std::size_t batch_nodes() const override { return capacity_ ? capacity_ : kBatchNodes; }
  std::string device() const override {
    return "GPU " + std::to_string(ctx_.device().index) + " (" + ctx_.device().name + ")";
  }
  EvaluatorTime time() const override { return time_; }

 private:
  CudaContext& ctx_;
  int n_ = 0;
  std::size_t capacity_ = 0, optin_ = 0;
  DeviceBuffer traffic_, costs_, in_, out_;
  ks::cuda::PinnedHostBuffer host_in_, host_out_;
  std::unique_ptr<ks::cuda::EventTimer> timer_;  // the kernels' time, for time()
  std::unique_ptr<ks::cuda::Event> copied_;       // the bounds are back: what a feeding thread sleeps on
  EvaluatorTime time_;
};

}  // namespace

std::unique_ptr<NodeEvaluator> make_cuda_node_evaluator(CudaContext& ctx) {
  return std::make_unique<CudaNodeEvaluator>(ctx);
}

}  // namespace ks::topo
