#pragma once
// cuBLAS, opened when matmul's cublas variants first need it (core/runtime_library.hpp says why it is not
// linked): the few functions they call, as pointers into the toolkit's libcublas.
#include <cublas_v2.h>

namespace ks::lab {

struct CublasApi {
  decltype(&cublasCreate_v2) create;
  decltype(&cublasDestroy_v2) destroy;
  decltype(&cublasSetMathMode) set_math_mode;
  decltype(&cublasSetStream_v2) set_stream;
  decltype(&cublasSgemm_v2) sgemm;
  // C++ adds an inline overload of cublasGemmEx (a cudaDataType compute type): the library's own, by its signature.
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                            const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                            cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  decltype(&cublasGetStatusString) status_string;
};

// The library opened on first use and kept for the process's life, as if linked. Throws a Device Error naming
// the library and how to get it where it cannot be opened; the next call tries again.
const CublasApi& cublas_api();

}  // namespace ks::lab
