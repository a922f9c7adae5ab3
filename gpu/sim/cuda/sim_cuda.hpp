#pragma once
// CUDA backends of ks::Simulation. Declared without CUDA headers; in a build without CUDA the factory throws a
// Device error that suggests the CPU backend.
#include <memory>
#include <string>

#include "core/cuda_context.hpp"
#include "core/launch_shape.hpp"
#include "sim/sim_backend.hpp"

namespace ks::sim::cuda {

// Variants: life naive | tiled | bitpacked; heat and grayscott naive | strip | temporal (several steps per
// pass). The block is validated against the device and the variant's kernel (threads, dimensions, registers,
// shared memory, the variant's own needs) before any device memory is taken; a block that cannot run is a usage
// Error saying which limit it breaks.
std::unique_ptr<SimBackend> make_cuda_backend(CudaContext& ctx, const SimModel& model, const std::string& variant,
                                              BlockShape block);

}  // namespace ks::sim::cuda
