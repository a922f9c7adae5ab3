#pragma once
// matmul on the GPU, declared without CUDA headers: plain device pointers (row-major f32) and a `void*`
// stream. A MatmulRunner validates one variant's launch for one shape and block on this device and owns what
// the launch needs (the cuBLAS handle), so that creating it stays outside the timed launches.
#include <memory>
#include <string>

#include "core/device_info.hpp"
#include "core/launch_shape.hpp"
#include "core/occupancy.hpp"
#include "lab/matmul/matmul_shape.hpp"

namespace ks::lab {

enum class MatmulVariant {
  Naive,       // one thread per element of C, every operand from global memory
  Tiled,       // square shared-memory tiles of A and B (the block's shape: 8x8, 16x16 or 32x32)
  Regtiled,    // 128x128 tiles of C per block, 8x8 per thread from registers, 16-byte shared loads
  Cublas,      // cuBLAS SGEMM, CUBLAS_DEFAULT_MATH: FP32 on the CUDA cores
  CublasTf32,  // cuBLAS with CUBLAS_COMPUTE_32F_FAST_TF32: TF32 tensor cores, about 1e-3 relative
};

const char* to_string(MatmulVariant v) noexcept;  // "naive", "tiled", "regtiled", "cublas", "cublas_tf32"
MatmulVariant matmul_variant_from_string(const std::string& s);  // usage Error for anything else

// What a variant computes in, for the report ("FP32 CUDA cores", "TF32 tensor cores, ~1e-3 relative").
const char* matmul_precision_text(MatmulVariant v) noexcept;

// The regtiled variant's fixed launch: 16x16 threads, each 8x8 values of a 128x128 tile of C.
inline constexpr int kRegTile = 128;
inline constexpr int kRegThreadTile = 8;

struct MatmulLaunch {
  MatmulVariant variant = MatmulVariant::Naive;
  BlockShape block;                  // threads per block (cuBLAS: {0, 0}, its own choice)
  long long grid_x = 0, grid_y = 0;  // blocks (cuBLAS: 0)
  long long c_per_thread = 0;        // elements of C one thread computes (1, 1, 64; cuBLAS: 0)
  std::string description;           // the launch in words, for the report
  OccupancyReport occupancy;         // of the kernel (cuBLAS: empty)
};

class MatmulRunner {
 public:
  // Throws a usage Error for a shape out of range or a block the variant cannot use (naive: any block the
  // device can run; tiled: square 8x8, 16x16 or 32x32; regtiled: 16x16; cuBLAS ignores it), and a Device
  // error when cuBLAS cannot start.
  MatmulRunner(MatmulVariant variant, const MatmulShape& shape, BlockShape block, const DeviceInfo& device);
  ~MatmulRunner();
  MatmulRunner(const MatmulRunner&) = delete;
  MatmulRunner& operator=(const MatmulRunner&) = delete;

  const MatmulLaunch& launch() const noexcept;
  // c = a * b on `stream` (a cudaStream_t), asynchronous. c must not alias a or b.
  void run(const float* d_a, const float* d_b, float* d_c, void* stream);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ks::lab
