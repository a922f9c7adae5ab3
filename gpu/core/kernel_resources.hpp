#pragma once
// What one kernel asks of an SM, known without a GPU (cudaFuncGetAttributes needs one): each family keeps a
// table of these for its kernels (stencil/stencil_kernel_resources.hpp, sim/sim_kernel_resources.hpp), and a
// device model's occupancy uses them.
#include <cstddef>
#include <string>

namespace ks {

struct KernelResources {
  std::string kernel_name;       // "tiled_window<u8,1,linear>", as the CUDA occupancy report names it
  int registers_per_thread = 0;  // ptxas, sm_90
  std::size_t shared_bytes = 0;  // per block (the tiled variants' dynamic tile)
};

}  // namespace ks
