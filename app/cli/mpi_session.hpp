#pragma once
// MPI for `kernelscope-cli topo` under mpirun or srun: initialised when the launcher started several ranks,
// finalised when the session ends. Only the main thread calls MPI (MPI_THREAD_FUNNELED): on rank 0 that is the
// sweep's coordinator loop, whose local workers are plain threads. Built only with KS_WITH_MPI (mpi_session.cpp);
// mpi_session_nompi.cpp stands in otherwise.
#include <memory>
#include <string>

#include "cli/launch.hpp"
#include "topo/sweep/rank_link.hpp"

namespace ks::cli {

class MpiSession {
 public:
  // Device Error in a build without MPI.
  explicit MpiSession(const LaunchInfo& launch);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int size() const;
  int rank() const;
  int local_rank() const;   // among the ranks of this host
  int local_size() const;
  const std::string& host() const;
  topo::RankLink& link();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ks::cli
