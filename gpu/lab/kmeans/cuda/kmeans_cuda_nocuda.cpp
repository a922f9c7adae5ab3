// Built only without the CUDA backend.
#include "core/error.hpp"
#include "lab/kmeans/cuda/kmeans_cuda.hpp"

namespace ks::lab::cuda {

std::unique_ptr<KmeansBackend> make_cuda_kmeans(CudaContext&, std::span<const std::uint32_t>, KmeansVariant,
                                                int) {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend", "use --variant cpu");
}

}  // namespace ks::lab::cuda
