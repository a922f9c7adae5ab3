#include "cli/launch.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace ks::cli {

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return *end == '\0' && x >= 0 && x < (1L << 30) ? int(x) : fallback;
}

}  // namespace

LaunchInfo launch_from_environment() {
  LaunchInfo l;
  if (env_int("OMPI_COMM_WORLD_SIZE", 0) > 0) {
    l.launcher = "mpirun";
    l.ranks = env_int("OMPI_COMM_WORLD_SIZE", 1);
    l.rank = env_int("OMPI_COMM_WORLD_RANK", 0);
    l.local_ranks = env_int("OMPI_COMM_WORLD_LOCAL_SIZE", 1);
    l.local_rank = env_int("OMPI_COMM_WORLD_LOCAL_RANK", 0);
  } else if (std::getenv("SLURM_PROCID") && env_int("SLURM_STEP_NUM_TASKS", 0) > 0) {
    // A task of `srun` (a batch script itself has no step task count of its own beyond 1).
    l.launcher = "srun";
    l.ranks = env_int("SLURM_STEP_NUM_TASKS", 1);
    l.rank = env_int("SLURM_PROCID", 0);
    l.local_rank = env_int("SLURM_LOCALID", 0);
    const char* per_node = std::getenv("SLURM_STEP_TASKS_PER_NODE");  // "4" or "4(x2)" or "3,2"
    l.local_ranks = per_node ? std::max(1, std::atoi(per_node)) : 1;
  } else if (env_int("PMI_SIZE", 0) > 0) {
    l.launcher = "PMI";
    l.ranks = env_int("PMI_SIZE", 1);
    l.rank = env_int("PMI_RANK", 0);
    l.local_ranks = env_int("MPI_LOCALNRANKS", 1);
    l.local_rank = env_int("MPI_LOCALRANKID", 0);
  }
  if (l.ranks < 1) l.ranks = 1;
  if (l.local_ranks < 1) l.local_ranks = 1;
  return l;
}

}  // namespace ks::cli
