#pragma once
// `kernelscope-cli topo --placements bnb`: the proof by branch and bound (topo/bnb), run on the CPU threads
// (--threads) and, with --backend cuda, batches of nodes on GPUs (bnb_devices.hpp) each fed by one of them, with
// --time, --checkpoint/--resume, --json, --csv, --chart and --reference; under mpirun this is rank 0 (the other
// ranks: cmd_topo.cpp's run_bnb_rank). cmd_topo.cpp hands over when the placements are "bnb" after refusing the
// options that belong to sweeps or the search.
#include <string>

#include "cli/bnb_devices.hpp"
#include "cli/commands.hpp"
#include "inputs/topo_inputs.hpp"

namespace ks::topo {
class ProofRanks;
}

namespace ks::cli {

struct TopoBnbCall {
  const inputs::TopoInputs* inputs = nullptr;
  std::string qaplib_dat;  // --qaplib: the .sln beside it is the reference
  std::string backend;     // "", "cpu": the CPU threads; "cuda": and GPUs (a Device error without one)
  std::string gpus;        // with "cuda": "all" or "0,1" (topo_scale.hpp), fed by `feeders` threads each; empty: GPU 0,
                           // or under mpirun the rank's (bnb_devices.hpp)
  int feeders = 0;         // threads feeding each GPU; 0: bnb_devices.hpp chooses
  ProofPlace place;        // under mpirun: rank 0's place on its host
  std::string time_text;   // --time; empty: no limit
  std::string checkpoint, resume;
  double checkpoint_every_s = 5;
  std::string reference, chart, json, csv;
  unsigned threads = 0;              // 0: --threads (or every core)
  topo::ProofRanks* ranks = nullptr;  // rank 0 under mpirun: the other ranks take subtrees too
};

int run_topo_bnb(const TopoBnbCall& call, const GlobalOptions& global);

}  // namespace ks::cli
