#include <string>

#include "cli/commands.hpp"

namespace ks::cli {

std::string version_text() {
#ifdef KS_HAVE_CUDA
  const char* cuda = "CUDA backend built in";
#else
  const char* cuda = "CPU backend only: built without CUDA";
#endif
  return std::string("kernelscope-cli ") + KS_VERSION + " (" + cuda + ")";
}

}  // namespace ks::cli
