#pragma once
// A worker of a sweep: runs the chunks the coordinator hands it on its own backend. A thread of the coordinator's
// process (one per GPU, or the CPU) or another MPI rank (serve_sweep). Internal to gpu/topo.
#include <memory>
#include <string>

#include "core/error.hpp"
#include "topo/sweep/rank_link.hpp"
#include "topo/sweep/sweep_messages.hpp"
#include "topo/sweep/sweep_work.hpp"

namespace ks::topo {

class ChunkRunner {
 public:
  ChunkRunner(const Problem& p, const Work& w, SweepBackend& backend) : p_(p), w_(w), backend_(backend) {}
  // Runs every chunk of `a` (items as the assignment says) and reduces them into one report.
  ChunkReport run(const Assignment& a, const PassInputs& in);

 private:
  const Problem& p_;
  const Work& w_;
  SweepBackend& backend_;
  std::vector<std::array<std::uint64_t, kHistogramBins>> counts_;  // Top: the histogram, as PassIo takes it
  std::uint64_t counts_version_ = ~std::uint64_t(0);
};

// The backend a request asks for (CPU on `pool`, or CUDA on `cuda`); Device Error when CUDA is missing.
std::unique_ptr<SweepBackend> make_backend(const Problem& p, const EvalRequest& r, ThreadPool* pool, CudaContext* cuda);
// "NVIDIA H100 80GB HBM3 (GPU 0)" or "CPU (16 threads)".
std::string worker_name(const EvalRequest& r, ThreadPool* pool, CudaContext* cuda);

// Ranks > 0: says Hello to rank 0, then runs what it hands out until it says Stop. An Error on the way (a failed
// GPU) is reported to rank 0 as Failed; rank 0 prints it. Returns the rank's exit code: 0, or 1 after a failure.
// `where` names the rank in rank 0's messages ("rank 2 on node7").
int serve_sweep(const Problem& p, const EvalRequest& r, ThreadPool& pool, CudaContext* cuda, RankLink& link,
                const std::string& where);
// Ranks > 0 that could not even set up (inputs missing on this host, a bad request): tells rank 0 why, waits for
// its Stop. Returns the exit code the Error asks for.
int refuse_sweep(RankLink& link, const Error& why, const std::string& where);

}  // namespace ks::topo
