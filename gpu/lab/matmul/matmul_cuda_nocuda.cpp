// A build without CUDA: matmul's device variants say so (the cpu and openblas variants still run).
#include "lab/matmul/matmul_cuda.hpp"
#include "core/no_cuda.hpp"

namespace ks::lab {

struct MatmulRunner::Impl {};

MatmulRunner::MatmulRunner(MatmulVariant, const MatmulShape&, BlockShape, const DeviceInfo&) {
  throw_no_cuda();
}
MatmulRunner::~MatmulRunner() = default;
const MatmulLaunch& MatmulRunner::launch() const noexcept {
  static const MatmulLaunch none;
  return none;
}
void MatmulRunner::run(const float*, const float*, float*, void*) {
  throw_no_cuda();
}

}  // namespace ks::lab
