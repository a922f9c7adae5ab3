#pragma once
// The CUDA variants of vecadd and saxpy (vecadd_cuda.cu): naive, gridstride, vector4. No CUDA headers.
#include <memory>

#include "lab/lab_kernel.hpp"

namespace ks::lab {

enum class VecOp { Add, Saxpy };  // c = a + b; y = alpha * x + y

std::unique_ptr<LabCudaRun> make_vecadd_cuda_run(const CudaSetup& setup, VecOp op);

}  // namespace ks::lab
