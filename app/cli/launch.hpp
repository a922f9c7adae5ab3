#pragma once
// How this process was started: alone, or as one of several ranks by mpirun or srun, read from what they put in
// the environment. Lets the CLI start MPI only when it runs under a launcher, and lets a build without MPI refuse
// instead of running the same sweep once per rank.
#include <string>

namespace ks::cli {

struct LaunchInfo {
  int ranks = 1, rank = 0;            // in the whole job
  int local_ranks = 1, local_rank = 0;  // on this host (which GPU, how many CPU threads)
  std::string launcher;               // "mpirun", "srun", "PMI"; empty when alone
};

// From OMPI_COMM_WORLD_* (Open MPI's mpirun), SLURM_STEP_NUM_TASKS / SLURM_PROCID / SLURM_LOCALID (srun) or
// PMI_SIZE / PMI_RANK (other launchers).
LaunchInfo launch_from_environment();

// Whether this build has MPI (KS_WITH_MPI found Open MPI).
bool mpi_built_in();

}  // namespace ks::cli
