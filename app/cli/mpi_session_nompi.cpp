// Built without MPI (KS_WITH_MPI off, or Open MPI not found): a run under mpirun is refused by the caller, which
// asks mpi_built_in() first; constructing a session says why.
#include "cli/mpi_session.hpp"

#include "core/error.hpp"

namespace ks::cli {

bool mpi_built_in() { return false; }

struct MpiSession::Impl {
  std::string host;
};

MpiSession::MpiSession(const LaunchInfo& launch) {
  throw Error(ErrorKind::Device,
              "this kernelscope-cli was built without MPI, so under " +
                  (launch.launcher.empty() ? std::string("an MPI launcher") : launch.launcher) + " each of the " +
                  std::to_string(launch.ranks) + " processes would run the whole sweep on its own",
              "rebuild with Open MPI (Debian: libopenmpi-dev; CMake option KS_WITH_MPI), or run a single process");
}

MpiSession::~MpiSession() = default;
int MpiSession::size() const { return 1; }
int MpiSession::rank() const { return 0; }
int MpiSession::local_rank() const { return 0; }
int MpiSession::local_size() const { return 1; }
const std::string& MpiSession::host() const { return impl_->host; }
topo::RankLink& MpiSession::link() { throw Error(ErrorKind::Internal, "no MPI in this build"); }

}  // namespace ks::cli
