#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "lab/matmul/matmul_cuda.hpp"

namespace ks::lab {

namespace {
constexpr EnumName<MatmulVariant> kVariantNames[] = {{MatmulVariant::Naive, "naive"},
                                                     {MatmulVariant::Tiled, "tiled"},
                                                     {MatmulVariant::Regtiled, "regtiled"},
                                                     {MatmulVariant::Cublas, "cublas"},
                                                     {MatmulVariant::CublasTf32, "cublas_tf32"}};
}

const char* to_string(MatmulVariant v) noexcept {
  return name_of(kVariantNames, v);
}

MatmulVariant matmul_variant_from_string(const std::string& s) {
  return value_named(kVariantNames, s, "matmul variant");
}

const char* matmul_precision_text(MatmulVariant v) noexcept {
  return v == MatmulVariant::CublasTf32 ? "TF32 tensor cores, ~1e-3 relative" : "FP32 CUDA cores";
}

}  // namespace ks::lab
