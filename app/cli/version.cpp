#include <string>

#include "cli/commands.hpp"
#include "cli/launch.hpp"

namespace ks::cli {

std::string version_text() {
#ifdef KS_HAVE_CUDA
  const char* cuda = "CUDA backend built in";
#else
  const char* cuda = "CPU backend only: built without CUDA";
#endif
  const char* mpi = mpi_built_in() ? "MPI built in" : "built without MPI";
  return std::string("kernelscope-cli ") + KS_VERSION + " (" + cuda + "; " + mpi + ")";
}

}  // namespace ks::cli
