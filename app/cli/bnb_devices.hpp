#pragma once
// The GPUs that bound a proof's batches of nodes in this process (`topo --placements bnb --backend cuda`), fed by
// --feeders threads each (topo/bnb/batch_dive.hpp; by default the threads shared among the GPUs, up to 16 each),
// the threads left over diving on the CPU:
//   - one process: GPU 0, or every GPU of --gpus;
//   - a rank of mpirun: the GPU of its rank among the ranks of its host (MPI_Comm_split_type) modulo the GPUs
//     there, so that ranks beyond the GPUs share them (rank 0 says so in a note); or every GPU of --gpus, which
//     applies to each rank (one rank per host with --gpus all feeds all of that host's GPUs).
//
// Test hook: KS_TEST_BNB_STAND_IN_GPUS=N makes N evaluators on the feeding threads' CPU (CpuNodeEvaluator, named
// "stand-in GPU k") stand in for the machine's GPUs, so that CI, which has none, runs the proof's GPU paths,
// mpirun included, to the end. Not for users: a stand-in is slower than the CPU's own dive.
#include <memory>
#include <string>
#include <vector>

#include "core/cuda_context.hpp"
#include "engine/engine.hpp"
#include "topo/bnb/gpu_feeders.hpp"
#include "topo/bnb/node_batch.hpp"

namespace ks::cli {

inline constexpr const char* kStandInGpusVariable = "KS_TEST_BNB_STAND_IN_GPUS";

// Where this process runs: alone, or as a rank of mpirun (its place among the ranks of its host).
struct ProofPlace {
  bool rank = false;
  int local_rank = 0, local_ranks = 1;
  std::string host;
};

class ProofDevices {
 public:
  // backend: "cuda" opens GPUs, anything else none. gpus: --gpus ("all", "0,1"; empty: the default above).
  // feeders: --feeders (0: the default above). Device Error without a usable GPU, usage Error for --gpus naming
  // a GPU that is not there.
  ProofDevices(const std::string& backend, const std::string& gpus, int feeders, const ProofPlace& place,
               Engine& engine);
  ProofDevices(const ProofDevices&) = delete;
  ProofDevices& operator=(const ProofDevices&) = delete;

  std::vector<topo::NodeEvaluator*> evaluators() const;
  // "GPU 1 (NVIDIA H100 80GB HBM3)" per GPU ("... with 4 feeding threads"), in order.
  const std::vector<std::string>& labels() const { return labels_; }
  // For rank 0 to print: ranks sharing a GPU.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void open(int device, int feeders, Engine& engine, bool engine_context);

  int stand_ins_ = -1;  // KS_TEST_BNB_STAND_IN_GPUS, -1 when unset
  std::vector<std::unique_ptr<CudaContext>> contexts_;                  // the GPUs' first contexts
  std::vector<std::unique_ptr<topo::GpuFeeders>> feeders_;              // after contexts_: destroyed before them
  std::vector<std::unique_ptr<topo::NodeEvaluator>> stand_in_evaluators_;
  std::vector<std::string> labels_, notes_;
};

}  // namespace ks::cli
