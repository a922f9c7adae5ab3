#include "core/runtime_library.hpp"
#include "lab/matmul/cuda/cublas_api.cuh"

namespace ks::lab {

namespace {

// Kept mapped until the process ends, as a linked library is (stays_mapped: runtime_library.hpp says why).
struct LoadedCublas {
  RuntimeLibrary library;
  CublasApi api;

  LoadedCublas()
      : library(toolkit_library_candidates(KS_CUBLAS_LIBRARY, KS_CUDA_LIBRARY_DIR), "cuBLAS",
                "install the CUDA toolkit's cuBLAS (" KS_CUBLAS_LIBRARY ") on the library path, or use another "
                "matmul variant",
                true) {
    api.create = library.function<decltype(api.create)>("cublasCreate_v2");
    api.destroy = library.function<decltype(api.destroy)>("cublasDestroy_v2");
    api.set_math_mode = library.function<decltype(api.set_math_mode)>("cublasSetMathMode");
    api.set_stream = library.function<decltype(api.set_stream)>("cublasSetStream_v2");
    api.sgemm = library.function<decltype(api.sgemm)>("cublasSgemm_v2");
    api.gemm_ex = library.function<decltype(api.gemm_ex)>("cublasGemmEx");
    api.status_string = library.function<decltype(api.status_string)>("cublasGetStatusString");
  }
};

}  // namespace

const CublasApi& cublas_api() {
  // Loaded once per process, like a linked library; a failed load throws and leaves it to the next call.
  static const LoadedCublas loaded;
  return loaded.api;
}

}  // namespace ks::lab
