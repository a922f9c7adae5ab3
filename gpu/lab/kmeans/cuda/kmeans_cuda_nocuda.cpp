// Built only without the CUDA backend.
#include "core/no_cuda.hpp"
#include "lab/kmeans/cuda/kmeans_cuda.hpp"

namespace ks::lab::cuda {

KmeansGrid kmeans_grid(KmeansVariant, std::size_t, int, const DeviceInfo&) {
  throw_no_cuda();
}
OccupancyReport kmeans_occupancy(KmeansVariant, int, const DeviceInfo&) {
  throw_no_cuda();
}
std::size_t kmeans_workspace_bytes(KmeansVariant, std::size_t, int, int, const DeviceInfo&) {
  throw_no_cuda();
}
std::unique_ptr<KmeansBackend> make_cuda_kmeans(const DeviceKmeansArrays&, void*, std::size_t, KmeansVariant,
                                                int, const DeviceInfo&, void*) {
  throw_no_cuda();
}
GpuKmeans kmeans_on_gpu(CudaContext&, std::span<const std::uint32_t>, std::span<const float>,
                        const KmeansParams&, KmeansVariant, int) {
  throw_no_cuda();
}

}  // namespace ks::lab::cuda
