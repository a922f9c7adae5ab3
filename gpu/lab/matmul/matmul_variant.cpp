#include "core/error.hpp"
#include "lab/matmul/matmul_cuda.hpp"

namespace ks::lab {

namespace {
constexpr MatmulVariant kAll[] = {MatmulVariant::Naive, MatmulVariant::Tiled, MatmulVariant::Regtiled,
                                  MatmulVariant::Cublas, MatmulVariant::CublasTf32};
}

const char* to_string(MatmulVariant v) noexcept {
  switch (v) {
    case MatmulVariant::Naive:
      return "naive";
    case MatmulVariant::Tiled:
      return "tiled";
    case MatmulVariant::Regtiled:
      return "regtiled";
    case MatmulVariant::Cublas:
      return "cublas";
    case MatmulVariant::CublasTf32:
      return "cublas_tf32";
  }
  return "?";
}

MatmulVariant matmul_variant_from_string(const std::string& s) {
  for (MatmulVariant v : kAll)
    if (s == to_string(v)) return v;
  throw_usage("unknown matmul variant '" + s + "'", "use naive, tiled, regtiled, cublas or cublas_tf32");
}

const char* matmul_precision_text(MatmulVariant v) noexcept {
  return v == MatmulVariant::CublasTf32 ? "TF32 tensor cores, ~1e-3 relative" : "FP32 CUDA cores";
}

}  // namespace ks::lab
