#pragma once
// The CPU backend of k-means (the lab's `cpu` variant): the assignment step threaded over fixed chunks of
// pixels. The sums are integers, so the result does not depend on the thread count.
#include <memory>

#include "lab/kmeans/kmeans.hpp"

namespace ks::lab {

std::unique_ptr<KmeansBackend> make_cpu_kmeans(std::span<const std::uint32_t> pixels, ThreadPool& pool);

}  // namespace ks::lab
