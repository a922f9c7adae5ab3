#pragma once
// The CUDA variants of the lab's sort kernel as the lab framework runs them (sort_lab_run.cu). No CUDA
// headers.
#include <memory>

#include "lab/lab_kernel.hpp"
#include "lab/sort/cuda/sort_cuda.hpp"

namespace ks::lab {

// keys (and values when `pairs`) are the run's InOut arrays 0 (and 1), sorted in place.
std::unique_ptr<LabCudaRun> make_sort_cuda_run(const CudaSetup& setup, cuda::GpuSort variant, bool pairs);

}  // namespace ks::lab
