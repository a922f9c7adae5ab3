// matmul's CPU peer through OpenBLAS (built where CMake found the `openblas` pkg-config module).
#include <cblas.h>

#include "lab/matmul/matmul_cpu.hpp"

namespace ks::lab {

bool openblas_available() {
  return true;
}
std::string openblas_unavailable_reason() {
  return {};
}

void matmul_openblas(const float* a, const float* b, float* c, const MatmulShape& s, int threads) {
  openblas_set_num_threads(threads);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(s.m), int(s.n), int(s.k), 1.0f, a, int(s.k), b,
              int(s.n), 0.0f, c, int(s.n));
}

}  // namespace ks::lab
