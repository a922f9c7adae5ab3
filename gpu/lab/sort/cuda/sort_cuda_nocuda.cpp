// Built only without the CUDA backend.
#include "core/no_cuda.hpp"
#include "lab/sort/cuda/sort_cuda.hpp"

namespace ks::lab::cuda {

std::size_t sort_workspace_bytes(GpuSort, std::size_t, bool) {
  throw_no_cuda();
}
void enqueue_sort(GpuSort, const DeviceSortArrays&, void*, std::size_t, void*) {
  throw_no_cuda();
}
GpuSortTimes sort_on_gpu(GpuSort, std::span<std::uint32_t>, std::span<std::uint32_t>, int, void*) {
  throw_no_cuda();
}

}  // namespace ks::lab::cuda
