#pragma once
// What the lab's kmeans kernel (kmeans_kernel.cpp) and its CUDA runs (cuda/kmeans_lab_run.cu) share: the
// order of the run's arrays, the parameters, and the per-iteration outputs.
#include <cstddef>
#include <vector>

#include "lab/kmeans/kmeans.hpp"
#include "registry/params.hpp"

namespace ks::lab {

// Indices of LabKernel::arrays() for kmeans.
enum KmeansArray : std::size_t {
  kPixelsArray = 0,  // u32 (height, width): 0xAABBGGRR
  kStartArray,       // f32 (k, 3): the k-means++ start
  kCentroidsArray,   // f32 (k, 3): the final centroids
  kLabelsArray,      // u32 (height, width): each pixel's cluster
  kInertiaArray,     // f64 (iterations + 1): inertia per pass, NaN after the last
  kShiftArray,       // f64 (iterations): the largest centroid move per update, NaN after the last
};

KmeansParams kmeans_params_of(const ParamSet& params);

// A per-pass series padded with NaN to the array's fixed length (the run may stop before max_iterations).
std::vector<double> padded_series(const std::vector<double>& values, std::size_t length);

}  // namespace ks::lab
