#pragma once
// The CPU backend of k-means (the lab's `cpu` variant): the assignment step threaded over fixed chunks of
// pixels. The sums are integers, so the result does not depend on the thread count.
#include <memory>

#include "lab/kmeans/kmeans.hpp"

namespace ks {
class ThreadPool;
}

namespace ks::lab {

// Pixels as kmeans_image.hpp makes them; labels (one per pixel) written by the passes that ask for them.
std::unique_ptr<KmeansBackend> make_cpu_kmeans(std::span<const std::uint32_t> pixels,
                                               std::span<std::uint32_t> labels, ThreadPool& pool);

}  // namespace ks::lab
