// The CUDA backend of the search: the chains' state in device memory, one launch per sync interval
// (search_kernels.cuh), the headers downloaded after each; restarts upload the new placements and headers.
// The arithmetic is the one the driver chose (int32, int64 or double), the same as the CPU's, so that the
// chains make the same moves on both backends; int32 tabu chains keep their path costs and traffic in the
// bits the driver chose (ExactInt32In: the same values, in less shared memory).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <type_traits>

#include "core/cuda/check.cuh"
#include "core/cuda/device_buffer.cuh"
#include "core/error.hpp"
#include "topo/search/cuda/search_kernels.cuh"
#include "topo/search/search_backend.hpp"

namespace ks::topo {

namespace {

using ks::cuda::check;
using ks::cuda::DeviceBuffer;
using std::to_string;  // (no fmt under nvcc in C++20 mode)

// Shared memory a tabu block may use for its optional pieces: enough for everything of n = 60 in int32 with
// four blocks per SM; larger problems keep the tabu list, then the delta matrix ... in global memory (through
// L1).
constexpr std::size_t kTabuSharedBudget = 100 * 1024;
// ... and an annealing block: the placements' columns and the matrices.
constexpr std::size_t kAnnealSharedBudget = 64 * 1024;
// Integer tabu chains whose blocks give an SM fewer warps than this split each O(n) sum between two threads
// (tabu_step.hpp): their steps are then short of parallel work, not of issue slots (docs/PERF.md).
constexpr int kSplitBelowWarpsPerSm = 16;
// The chains of an automatic count keep at most this much state in device memory.
constexpr double kMaxStateBytes = 8e9;

std::size_t aligned(std::size_t bytes) {
  return (bytes + 15) & ~std::size_t(15);
}

// A device copy of a host vector, complete when this returns (see upload_array).
template <class T>
DeviceBuffer upload(const std::vector<T>& v, const char* what) {
  return ks::cuda::upload_array(v.data(), v.size(), what);
}

template <class A>
class CudaSearch final : public SearchBackend {
  using V = typename A::Value;
  using M = matrix_t<A>;
  // Narrower matrices serve the tabu chains only (make_cuda_search).
  static constexpr bool kNarrow = !std::is_same_v<M, V>;

 public:
  CudaSearch(const SearchSetup& s, CudaContext& ctx) : setup_(s), ctx_(ctx), n_(s.step.n) {
    // The context's device, whichever device this thread last used (a process may hold a context per GPU).
    ctx.make_current();
    stream_ = static_cast<cudaStream_t>(ctx.stream());
    traffic_ = upload(stored_as<M>(traffic_matrix<V>(*s.problem, s.slice)), "the search's traffic");
    int blocks_per_sm = 0;
    if (s.algorithm == SearchAlgorithm::Tabu)
      blocks_per_sm = lay_out_tabu();
    else if constexpr (!kNarrow)
      blocks_per_sm = lay_out_anneal();
    if (blocks_per_sm < 1)
      throw Error(ErrorKind::Device, "the search's kernel cannot run on this GPU (no block fits an SM)",
                  "use --backend cpu");
    chains_ = s.chains > 0 ? s.chains : automatic_chain_count(blocks_per_sm);
    allocate_chains();
    launch_ = launch_text(blocks_per_sm);
  }

  int chains() const override { return chains_; }

  void set_chains(const std::vector<int>& which, const std::vector<std::uint16_t>& placements,
                  const std::vector<ChainHeader>& headers) override {
    if (which.empty()) return;
    ctx_.make_current();
    for (std::size_t k = 0; k < which.size(); ++k) headers_h_[std::size_t(which[k])] = headers[k];
    check(cudaMemcpyAsync(headers_.get(), headers_h_.data(), headers_h_.size() * sizeof(ChainHeader),
                          cudaMemcpyHostToDevice, stream_),
          "uploading the chains' headers");
    DeviceBuffer staged = upload(placements, "restart placements");
    DeviceBuffer rows = upload(which, "restart chains");
    const int count = int(which.size());
    const int blocks = int(std::min<long long>(4096, ((long long)count * n_ + 255) / 256));
    cuda::scatter_placements<<<blocks, 256, 0, stream_>>>(p_.as<std::uint16_t>(), staged.as<std::uint16_t>(),
                                                          rows.as<int>(), count, n_);
    ks::cuda::check_launch("scatter_placements");
    check(cudaStreamSynchronize(stream_), "restarting chains");
  }

  void advance(int steps) override {
    ctx_.make_current();  // a search may be driven from another thread than the one that built it
    if (setup_.algorithm == SearchAlgorithm::Tabu) {
      cuda::TabuLaunch<A> L{traffic_.as<M>(),
                            cost_.as<M>(),
                            pairs_.as<std::uint32_t>(),
                            headers_.as<ChainHeader>(),
                            p_.as<std::uint16_t>(),
                            best_.as<std::uint16_t>(),
                            permuted_.as<M>(),
                            tabu_.as<std::int32_t>(),
                            delta_.as<V>(),
                            setup_.step,
                            pitch_,
                            plan_};
      tabu_kernel_<<<chains_, threads_, plan_.bytes, stream_>>>(L, steps);
      ks::cuda::check_launch("tabu_kernel");
    } else if constexpr (!kNarrow) {
      cuda::AnnealLaunch<A> L{traffic_.as<V>(),
                              cost_.as<V>(),
                              headers_.as<ChainHeader>(),
                              p_.as<std::uint16_t>(),
                              best_.as<std::uint16_t>(),
                              chains_,
                              setup_.step,
                              matrices_shared_,
                              placements_shared_};
      cuda::anneal_kernel<A>
          <<<(chains_ + threads_ - 1) / threads_, threads_, anneal_bytes_, stream_>>>(L, steps);
      ks::cuda::check_launch("anneal_kernel");
    }
    check(cudaMemcpyAsync(headers_h_.data(), headers_.get(), headers_h_.size() * sizeof(ChainHeader),
                          cudaMemcpyDeviceToHost, stream_),
          "downloading the chains' headers");
    check(cudaStreamSynchronize(stream_), "the search's steps (a kernel failed)");
  }

  const std::vector<ChainHeader>& headers() const override { return headers_h_; }

  std::vector<std::uint16_t> placement(int chain, bool best) override {
    ctx_.make_current();
    std::vector<std::uint16_t> out(static_cast<std::size_t>(n_));
    const auto* from = (best ? best_ : p_).as<std::uint16_t>() + std::size_t(chain) * std::size_t(n_);
    check(cudaMemcpyAsync(out.data(), from, out.size() * 2, cudaMemcpyDeviceToHost, stream_),
          "downloading a placement");
    check(cudaStreamSynchronize(stream_), "downloading a placement");
    return out;
  }

  std::string device() const override { return ctx_.device().name; }
  std::string launch() const override { return launch_; }

 private:
  // The tabu kernel's inputs (path costs with rows pitch_ apart, the pair table), its block size and what of
  // a chain's state fits its shared memory; the blocks of it an SM holds.
  int lay_out_tabu() {
    const std::size_t n = std::size_t(n_), pairs = std::size_t(setup_.step.pairs);
    const std::size_t optin = ctx_.device().shared_memory_per_block_optin;
    int blocks_per_sm = 0;
    pitch_ = matrix_pitch<M>(n_);
    cost_ = upload(stored_as<M>(padded(cost_matrix<V>(*setup_.problem, setup_.configuration), n_, pitch_)),
                   "the search's path costs");
    pairs_ = upload(pair_table(n_), "the search's pair table");
    const std::size_t area = n * std::size_t(pitch_), tabu_area = n * std::size_t(tabu_pitch(n_));
    std::size_t bytes =
        aligned(std::size_t(MoveVectors<A>::slots(n_)) * sizeof(typename MoveVectors<A>::Slot)) +
        aligned(cuda::kMaxTabuThreads / 32 * sizeof(MoveChoice<V>)) + aligned(n * sizeof(std::uint16_t));
    if (std::is_same_v<V, std::int32_t> && n_ > kMaxPackedChoiceNodes)  // see PackedChoice
      throw Error(ErrorKind::Device,
                  "the CUDA tabu search takes at most " + to_string(kMaxPackedChoiceNodes) +
                      " nodes in 32-bit arithmetic; this problem has " + to_string(n_),
                  "use --backend cpu");
    const std::size_t budget = std::min(kTabuSharedBudget, optin);
    auto take = [&](std::size_t more) {
      if (bytes + aligned(more) > budget) return false;
      bytes += aligned(more);
      return true;
    };
    // In the order of the reads a step makes: path costs and permuted traffic (n^2 entries of M each), then
    // the delta matrix (n^2 / 2 values) and the tabu list (n^2 words).
    plan_.costs_shared = take(area * sizeof(M));
    plan_.permuted_shared = take(area * sizeof(M));
    plan_.delta_shared = take(pairs * sizeof(V));
    plan_.tabu_shared = take(tabu_area * 4);
    // Everything in shared memory: a thread per pair that touches a move (the O(n) recomputations, the
    // longest work of a step), rounded up to whole warps; two where the costs are integers and the SM would
    // hold few warps (the pair's sum split between them). The delta matrix or the tabu list in global memory:
    // the most threads, whose warps hide its latency (docs/PERF.md has the measurements).
    const bool all_shared = plan_.delta_shared && plan_.tabu_shared;
    const auto whole_warps = [](int threads) {
      return std::clamp((threads + 31) / 32 * 32, 64, cuda::kMaxTabuThreads);
    };
    threads_ = setup_.block > 0 ? setup_.block : all_shared ? whole_warps(2 * n_ - 3) : cuda::kMaxTabuThreads;
    if (bytes > optin)
      throw Error(ErrorKind::Device,
                  "the tabu search of " + to_string(n_) + " nodes needs " + to_string(bytes / 1024) +
                      " KB of shared memory per block; this GPU has " + to_string(optin / 1024),
                  "use --backend cpu");
    plan_.bytes = unsigned(bytes);
    tabu_kernel_ = compiled_tabu_kernel(cuda::tabu_spaces(plan_));
    check(cudaFuncSetAttribute(tabu_kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
          "cudaFuncSetAttribute (tabu search)");
    const auto occupancy = [&] {
      check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, tabu_kernel_, threads_, bytes),
            "occupancy of the tabu search");
    };
    occupancy();
    const int split = whole_warps(2 * (2 * n_ - 3));
    if (setup_.block == 0 && all_shared && A::exact &&
        blocks_per_sm * threads_ / 32 < kSplitBelowWarpsPerSm && split > threads_) {
      threads_ = split;
      occupancy();
    }
    return blocks_per_sm;
  }

  using TabuKernel = void (*)(cuda::TabuLaunch<A>, int);
  static TabuKernel compiled_tabu_kernel(cuda::TabuSpaces spaces) {
    switch (spaces) {
      case cuda::TabuSpaces::Everything:
        return cuda::tabu_kernel<A, cuda::TabuSpaces::Everything>;
      case cuda::TabuSpaces::Matrices:
        return cuda::tabu_kernel<A, cuda::TabuSpaces::Matrices>;
      default:
        return cuda::tabu_kernel<A, cuda::TabuSpaces::Planned>;
    }
  }

  // The annealing kernel's inputs and what of them fits its shared memory; the blocks of it an SM holds.
  int lay_out_anneal() {
    const std::size_t n = std::size_t(n_), nn = n * n;
    int blocks_per_sm = 0;
    cost_ = upload(cost_matrix<V>(*setup_.problem, setup_.configuration), "the search's path costs");
    threads_ = cuda::kAnnealThreads;
    std::size_t bytes = 0;
    if ((placements_shared_ = n * threads_ * sizeof(std::uint16_t) <= kAnnealSharedBudget))
      bytes += aligned(n * threads_ * sizeof(std::uint16_t));
    if ((matrices_shared_ = bytes + 2 * aligned(nn * sizeof(V)) <= kAnnealSharedBudget))
      bytes += 2 * aligned(nn * sizeof(V));
    anneal_bytes_ = unsigned(bytes);
    check(
        cudaFuncSetAttribute(cuda::anneal_kernel<A>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
        "cudaFuncSetAttribute (annealing)");
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, cuda::anneal_kernel<A>, threads_,
                                                        bytes),
          "occupancy of the annealing");
    return blocks_per_sm;
  }

  // Enough chains to fill every SM, as long as their state stays within kMaxStateBytes.
  int automatic_chain_count(int blocks_per_sm) const {
    const std::size_t n = std::size_t(n_), pairs = std::size_t(setup_.step.pairs);
    std::size_t per_chain = 4 * n;  // placements and best placements
    if (setup_.algorithm == SearchAlgorithm::Tabu)
      per_chain +=
          n * (std::size_t(pitch_) * sizeof(M) + std::size_t(tabu_pitch(n_)) * 4) + pairs * sizeof(V);
    const double per_block = setup_.algorithm == SearchAlgorithm::Tabu ? 1.0 : double(threads_);
    const double fill = double(ctx_.device().sm_count) * blocks_per_sm * per_block;
    return int(std::max(1.0, std::min(fill, kMaxStateBytes / double(per_chain + sizeof(ChainHeader)))));
  }

  // The chains' state in device memory (and the host's copy of their headers).
  void allocate_chains() {
    const std::size_t n = std::size_t(n_), pairs = std::size_t(setup_.step.pairs), c = std::size_t(chains_);
    headers_h_.resize(c);
    headers_ = DeviceBuffer(c * sizeof(ChainHeader), "the search's chain headers");
    p_ = DeviceBuffer(c * n * 2, "the search's placements");
    best_ = DeviceBuffer(c * n * 2, "the search's best placements");
    if (setup_.algorithm == SearchAlgorithm::Tabu) {
      permuted_ = DeviceBuffer(c * n * std::size_t(pitch_) * sizeof(M), "the permuted traffic");
      tabu_ = DeviceBuffer(c * n * std::size_t(tabu_pitch(n_)) * 4, "the tabu lists");
      delta_ = DeviceBuffer(c * pairs * sizeof(V), "the delta matrices");
    }
  }

  // "tabu: 80 blocks x 64 threads, 4 blocks per SM, 31 KB shared memory per block (path costs, ...)".
  std::string launch_text(int blocks_per_sm) const {
    const bool tabu = setup_.algorithm == SearchAlgorithm::Tabu;
    const int blocks = tabu ? chains_ : (chains_ + threads_ - 1) / threads_;
    return std::string(tabu ? "tabu" : "anneal") + ": " + to_string(blocks) + " blocks x " +
           to_string(threads_) + " threads, " + to_string(blocks_per_sm) + " blocks per SM, " +
           to_string((tabu ? plan_.bytes : anneal_bytes_) / 1024) + " KB shared memory per block (" +
           shared_pieces() + ")";
  }

  std::string shared_pieces() const {
    std::string s;
    auto add = [&](bool on, const char* what) {
      if (on) s += (s.empty() ? "" : ", ") + std::string(what);
    };
    if (setup_.algorithm == SearchAlgorithm::Tabu) {
      const std::string bits = kNarrow ? " (" + to_string(8 * sizeof(M)) + "-bit)" : "";
      add(true, "placement");
      add(plan_.costs_shared, ("path costs" + bits).c_str());
      add(plan_.permuted_shared, ("permuted traffic" + bits).c_str());
      add(plan_.delta_shared, "delta matrix");
      add(plan_.tabu_shared, "tabu list");
    } else {
      add(placements_shared_, "placements");
      add(matrices_shared_, "traffic and path costs");
    }
    return s.empty() ? "nothing" : s;
  }

  SearchSetup setup_;
  CudaContext& ctx_;
  cudaStream_t stream_{};
  int n_ = 0, chains_ = 0, threads_ = 0, pitch_ = 0;
  cuda::TabuPlan plan_{};
  TabuKernel tabu_kernel_ = nullptr;  // the one compiled for plan_
  bool matrices_shared_ = false, placements_shared_ = false;
  unsigned anneal_bytes_ = 0;
  DeviceBuffer traffic_, cost_, pairs_, headers_, p_, best_, permuted_, tabu_, delta_;
  std::vector<ChainHeader> headers_h_;
  std::string launch_;
};

}  // namespace

std::unique_ptr<SearchBackend> make_cuda_search(const SearchSetup& setup, CudaContext& cuda) {
  switch (setup.arithmetic) {
    case SearchArithmetic::Int32:
      if (setup.algorithm == SearchAlgorithm::Tabu && setup.matrix_bits == 8)
        return std::make_unique<CudaSearch<ExactInt32In<std::int8_t>>>(setup, cuda);
      if (setup.algorithm == SearchAlgorithm::Tabu && setup.matrix_bits == 16)
        return std::make_unique<CudaSearch<ExactInt32In<std::int16_t>>>(setup, cuda);
      return std::make_unique<CudaSearch<ExactInt32>>(setup, cuda);
    case SearchArithmetic::Int64:
      return std::make_unique<CudaSearch<ExactInt64>>(setup, cuda);
    default:
      return std::make_unique<CudaSearch<RealDouble>>(setup, cuda);
  }
}

}  // namespace ks::topo
