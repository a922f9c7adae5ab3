#include <bit>

#include "lab/cuda/lab_launch.cuh"
#include "lab/sort/cuda/bitonic_sort.cuh"
#include "lab/sort/cuda/sort_lab_run.hpp"

namespace ks::lab {

namespace {

class SortRun final : public LabCudaRun {
 public:
  SortRun(const CudaSetup& setup, cuda::GpuSort variant, bool pairs) : variant_(variant), pairs_(pairs) {
    // Neither variant takes a block shape: bitonic's blocks hold 4096 elements in shared memory, CUB picks
    // its own. The default is accepted so that a run without --block works.
    if (setup.block.x != cuda::kBitonicThreads || setup.block.y != 1)
      throw_usage(
          "sort " + setup.variant + " does not take a block shape (--block " + to_string(setup.block) + ")",
          variant == cuda::GpuSort::Radix ? "CUB chooses its own launches: drop --block"
                                          : "bitonic uses blocks of 512 threads (4096 keys in shared "
                                            "memory): drop --block");
    if (variant == cuda::GpuSort::Bitonic) {
      ks::cuda::KernelLaunchShape shape{cuda::bitonic_merge_kernel(pairs), "bitonic merge_blocks",
                                        dim3(unsigned(cuda::kBitonicThreads)), 0};
      occupancy_ = ks::cuda::occupancy_of(*setup.device, shape);
    }
  }

  std::size_t workspace_bytes(const LabSize& piece) const override {
    return cuda::sort_workspace_bytes(variant_, std::size_t(piece.n()), pairs_);
  }

  std::optional<LaunchGeometry> geometry(const LabSize& piece) const override {
    if (variant_ == cuda::GpuSort::Radix) return std::nullopt;
    // The shared-memory kernels: one block per 4096 elements of the padded count.
    const auto padded = std::int64_t(std::bit_ceil(std::uint64_t(piece.n())));
    LaunchGeometry g;
    g.block = {cuda::kBitonicThreads, 1};
    g.grid_x = std::max<std::int64_t>(1, padded / std::int64_t(cuda::kBitonicBlockElems));
    g.work_items = padded;
    g.occupancy = occupancy_;
    return g;
  }

  void launch(const LabLaunch& l) override {
    cuda::DeviceSortArrays a;
    a.keys = static_cast<std::uint32_t*>(l.arrays[0].data);
    a.values = pairs_ ? static_cast<std::uint32_t*>(l.arrays[1].data) : nullptr;
    a.n = std::size_t(l.size.n());
    cuda::enqueue_sort(variant_, a, l.workspace, l.workspace_bytes, l.stream);
  }

  void describe(LabFacts& facts) const override {
    if (variant_ == cuda::GpuSort::Radix)
      facts.add("stable", "yes: CUB DeviceRadixSort keeps equal keys in input order");
    else
      facts.add("stable", pairs_ ? "no: pairs sort as 64-bit words, so equal keys come out ordered by value"
                                 : "no (a sorting network); for keys alone it cannot show");
  }

 private:
  cuda::GpuSort variant_;
  bool pairs_;
  OccupancyReport occupancy_;
};

}  // namespace

std::unique_ptr<LabCudaRun> make_sort_cuda_run(const CudaSetup& setup, cuda::GpuSort variant, bool pairs) {
  return std::make_unique<SortRun>(setup, variant, pairs);
}

}  // namespace ks::lab
