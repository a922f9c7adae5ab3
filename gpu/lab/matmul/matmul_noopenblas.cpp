// A build without OpenBLAS: the openblas variant says how to get it.
#include "core/error.hpp"
#include "lab/matmul/matmul_cpu.hpp"

namespace ks::lab {

bool openblas_available() {
  return false;
}
std::string openblas_unavailable_reason() {
  return "this build has no OpenBLAS (install libopenblas-dev and reconfigure)";
}

void matmul_openblas(const float*, const float*, float*, const MatmulShape&, int) {
  throw_usage("the openblas variant is unavailable: " + openblas_unavailable_reason(), "use the cpu variant");
}

}  // namespace ks::lab
