#pragma once
// The coordinator of a sweep (evaluate() with a SweepSetup): starts the local workers (a thread per GPU, or one
// for the CPU), talks to the other ranks, hands out chunks of each pass as workers ask, merges what comes back
// (sweep_ledger.hpp), reports progress, writes checkpoints, estimates the time and stops on cancel, abort or a
// failed worker. Internal to gpu/topo.
#include "topo/evaluation.hpp"
#include "topo/sweep/sweep_work.hpp"

namespace ks::topo {

EvalResult run_sweep(const Problem& p, const EvalRequest& r, const EvalControl& ctl, const SweepSetup& setup,
                     const Work& work);

}  // namespace ks::topo
