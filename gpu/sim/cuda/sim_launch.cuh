#pragma once
// The seam between the CUDA simulation backends (sim_cuda.cu) and the kernel files: each variant turns the
// model and a block shape into a launch description that is validated (block against the variant's own needs;
// the device limits through occupancy_of) before any device memory is taken, and a function that advances one
// pass (one step; the temporal variant's k steps) from one set of planes to the other.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "core/cuda/launch_check.cuh"
#include "core/cuda/launch_grid.cuh"  // block_dim, ceil_div, check_grid
#include "core/launch_shape.hpp"
#include "sim/sim_backend.hpp"

namespace ks::cuda {

// One pitched 2-D array on the device: a field (f32 cells), Life bytes (u8 0/255) or Life words (u64).
struct Plane {
  unsigned char* data = nullptr;
  std::size_t pitch = 0;  // bytes between row starts
  template <class T>
  __host__ __device__ T* row(int y) const {
    return reinterpret_cast<T*>(data + std::size_t(y) * pitch);
  }
};

// The state before and after a step: up to two fields (Gray-Scott has u and v).
struct Planes {
  Plane p[2];
};

struct SimLaunch {
  KernelLaunchShape shape;
  std::function<void(cudaStream_t, const Planes& in, const Planes& out)> run;  // one pass of steps_per_pass
  int steps_per_pass = 1;  // the steps one run() advances
  // Variants of several steps per pass (Life multistep, heat and Gray-Scott temporal): one pass of `steps` <
  // steps_per_pass (a power of two, sim/pass_steps.hpp), for the rest of a step count that is not a multiple of
  // steps_per_pass. Empty for one-step variants.
  std::function<void(cudaStream_t, const Planes& in, const Planes& out, int steps)> run_fewer;
};

// Life: u8 0/255 cells (naive, tiled) or 64 cells per word (bitpacked, the layout of sim_math.hpp).
SimLaunch make_life_naive_launch(const sim::SimModel& model, BlockShape block);
SimLaunch make_life_tiled_launch(const sim::SimModel& model, BlockShape block);
SimLaunch make_life_bitpacked_launch(const sim::SimModel& model, BlockShape block);
// The bitpacked layout, model.life.steps_per_pass generations per pass (life_multistep.cu); block 32 x warps.
SimLaunch make_life_multistep_launch(const sim::SimModel& model, BlockShape block);
// Heat (one field) and Gray-Scott (u, v): f32 fields.
SimLaunch make_field_naive_launch(const sim::SimModel& model, BlockShape block);
SimLaunch make_field_strip_launch(const sim::SimModel& model, BlockShape block);
// Several steps per pass (the model's steps_per_pass), equal bit for bit to as many one-step passes.
SimLaunch make_field_temporal_launch(const sim::SimModel& model, BlockShape block);

// The launch shape of a Life kernel instantiated for both borders: the torus or the dead-border instance.
template <class Kernel>
KernelLaunchShape life_launch_shape(bool torus, Kernel* on_torus, Kernel* dead_border,
                                    const std::string& name, BlockShape block,
                                    std::size_t dynamic_shared = 0) {
  KernelLaunchShape shape;
  shape.func = reinterpret_cast<const void*>(torus ? on_torus : dead_border);
  shape.name = name + (torus ? "<torus>" : "<dead>");
  shape.block = block_dim(block);
  shape.dynamic_shared = dynamic_shared;
  return shape;
}

// ---- helpers of the backends (sim_state.cu)
// ----------------------------------------------------------------

// Live cells of u8 0/255 cells, of packed words (padding bits are zero), and the sum of an f32 field, reduced
// on the device into `scratch` (8 bytes of device memory the caller keeps, so that a GUI reading the
// population every frame does not allocate and free device memory every frame); the call waits for the
// result.
long long count_live_bytes(const Plane& cells, int width, int height, void* scratch, cudaStream_t s);
long long count_live_words(const Plane& words, int words_per_row, int height, void* scratch, cudaStream_t s);
double sum_field(const Plane& field, int width, int height, void* scratch, cudaStream_t s);

// Brushes (sim_backend.hpp's Brush): u8 cells get 255 or 0, packed words their bits set or cleared, a field
// the value `v` (Gray-Scott: paint u with 1 - 2 value and v with value).
void paint_bytes(const Plane& cells, int width, int height, const sim::Brush& b, cudaStream_t s);
void paint_words(const Plane& words, int width, int height, const sim::Brush& b, cudaStream_t s);
void paint_field(const Plane& field, int width, int height, const sim::Brush& b, float value, cudaStream_t s);

// The density window (sim/density_view.hpp) of packed words into `out` (window.width x window.height f32;
// life_density.cu).
void density_view_words(const Plane& words, int width, int height, const sim::DensityWindow& window,
                        const Plane& out, cudaStream_t s);

// Packed words -> u8 0/255 cells, for the display.
void unpack_words(const Plane& words, const Plane& cells, int width, int height, cudaStream_t s);

}  // namespace ks::cuda
