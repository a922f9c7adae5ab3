#pragma once
// The CUDA variants of the lab's kmeans kernel as the lab framework runs them (kmeans_lab_run.cu). No CUDA
// headers.
#include <memory>

#include "lab/kmeans/cuda/kmeans_cuda.hpp"
#include "lab/lab_kernel.hpp"

namespace ks::lab {

std::unique_ptr<LabCudaRun> make_kmeans_cuda_run(const CudaSetup& setup, cuda::KmeansVariant variant);

}  // namespace ks::lab
