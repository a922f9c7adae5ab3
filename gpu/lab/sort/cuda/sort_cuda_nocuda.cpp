// Built only without the CUDA backend.
#include "core/error.hpp"
#include "lab/sort/cuda/sort_cuda.hpp"

namespace ks::lab::cuda {

namespace {
[[noreturn]] void no_cuda() {
  throw Error(ErrorKind::Device, "this build of kernelscope has no CUDA backend", "use --variant cpu");
}
}  // namespace

std::size_t sort_workspace_bytes(GpuSort, std::size_t, bool) {
  no_cuda();
}
void enqueue_sort(GpuSort, const DeviceSortArrays&, void*, std::size_t, void*) {
  no_cuda();
}
GpuSortTimes sort_on_gpu(GpuSort, std::span<std::uint32_t>, std::span<std::uint32_t>, int, void*) {
  no_cuda();
}

}  // namespace ks::lab::cuda
