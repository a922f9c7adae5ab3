// Built only without the CUDA backend.
#include "core/error.hpp"
#include "lab/kmeans/cuda/kmeans_cuda.hpp"

namespace ks::lab::cuda {

namespace {
[[noreturn]] void no_cuda() {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend", "use --variant cpu");
}
}  // namespace

KmeansGrid kmeans_grid(KmeansVariant, std::size_t, int, const DeviceInfo&) {
  no_cuda();
}
OccupancyReport kmeans_occupancy(KmeansVariant, int, const DeviceInfo&) {
  no_cuda();
}
std::size_t kmeans_workspace_bytes(KmeansVariant, std::size_t, int, int, const DeviceInfo&) {
  no_cuda();
}
std::unique_ptr<KmeansBackend> make_cuda_kmeans(const DeviceKmeansArrays&, void*, std::size_t, KmeansVariant,
                                                int, const DeviceInfo&, void*) {
  no_cuda();
}
GpuKmeans kmeans_on_gpu(CudaContext&, std::span<const std::uint32_t>, std::span<const float>,
                        const KmeansParams&, KmeansVariant, int) {
  no_cuda();
}

}  // namespace ks::lab::cuda
