// MatmulRunner: validates a variant's launch and runs it; the cuBLAS variants through a handle it owns.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "core/cuda/check.cuh"
#include "core/cuda/launch_check.cuh"
#include "lab/matmul/cuda/cublas_api.cuh"
#include "lab/matmul/cuda/matmul_regtiled.cuh"
#include "lab/matmul/cuda/matmul_simple.cuh"
#include "lab/matmul/matmul_cuda.hpp"

namespace ks::lab {

namespace {

// (fmt's compile-time format strings do not build under nvcc: plain strings in this file.)
void check_cublas(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const std::string msg = std::string(what) + " failed: " + cublas_api().status_string(status);
  if (status == CUBLAS_STATUS_ALLOC_FAILED) throw Error(ErrorKind::OutOfMemory, msg, "use a smaller matrix");
  throw Error(ErrorKind::Device, msg, "check the GPU with `kernelscope-cli info`, or use the cpu variant");
}

long long blocks_for(long long count, long long per_block) {
  return (count + per_block - 1) / per_block;
}

const void* tiled_kernel(int t) {
  switch (t) {
    case 8:
      return reinterpret_cast<const void*>(kernels::matmul_tiled_kernel<8>);
    case 16:
      return reinterpret_cast<const void*>(kernels::matmul_tiled_kernel<16>);
    default:
      return reinterpret_cast<const void*>(kernels::matmul_tiled_kernel<32>);
  }
}

// The 16-byte path needs rows that start on 16-byte boundaries (k and n multiples of 4, aligned pointers).
bool vector_path(const MatmulShape& s, const float* a, const float* b, const float* c) {
  const auto aligned = [](const float* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return s.k % 4 == 0 && s.n % 4 == 0 && aligned(a) && aligned(b) && aligned(c);
}

}  // namespace

struct MatmulRunner::Impl {
  MatmulShape shape;
  MatmulLaunch launch;
  cublasHandle_t cublas = nullptr;
  ~Impl() {
    if (cublas) cublas_api().destroy(cublas);
  }
};

MatmulRunner::MatmulRunner(MatmulVariant variant, const MatmulShape& shape, BlockShape block,
                           const DeviceInfo& device)
    : impl_(std::make_unique<Impl>()) {
  check_matmul_shape(shape);
  impl_->shape = shape;
  MatmulLaunch& l = impl_->launch;
  l.variant = variant;
  const std::string b = to_string(block);
  ks::cuda::KernelLaunchShape k;
  k.block = dim3(unsigned(std::max(block.x, 0)), unsigned(std::max(block.y, 0)));
  switch (variant) {
    case MatmulVariant::Naive:
      k.func = reinterpret_cast<const void*>(kernels::matmul_naive_kernel);
      k.name = "matmul_naive";
      l.c_per_thread = 1;
      break;
    case MatmulVariant::Tiled:
      if (block.x != block.y || (block.x != 8 && block.x != 16 && block.x != 32))
        throw_usage(
            "the tiled variant loads square tiles the size of its block and cannot use a " + b + " block",
            "use --block 8x8, 16x16 or 32x32");
      k.func = tiled_kernel(block.x);
      k.name = "matmul_tiled<" + std::to_string(block.x) + ">";
      l.c_per_thread = 1;
      break;
    case MatmulVariant::Regtiled:
      if (block.x != kernels::regtiled::kThreadsX || block.y != kernels::regtiled::kThreadsY)
        throw_usage(
            "the regtiled variant computes a 128x128 tile of C with 16x16 threads of 8x8 values each and "
            "cannot use a " +
                b + " block",
            "use --block 16x16");
      k.func = reinterpret_cast<const void*>(kernels::matmul_regtiled_kernel<true>);
      k.name = "matmul_regtiled";
      l.c_per_thread = kRegThreadTile * kRegThreadTile;
      break;
    case MatmulVariant::Cublas:
    case MatmulVariant::CublasTf32:
      check_cublas(cublas_api().create(&impl_->cublas), "cublasCreate");
      check_cublas(cublas_api().set_math_mode(impl_->cublas, variant == MatmulVariant::Cublas
                                                                 ? CUBLAS_DEFAULT_MATH
                                                                 : CUBLAS_TF32_TENSOR_OP_MATH),
                   "cublasSetMathMode");
      l.block = {0, 0};
      l.description =
          variant == MatmulVariant::Cublas
              ? "cublasSgemm (CUBLAS_DEFAULT_MATH: FP32 CUDA cores), C^T = B^T A^T in column-major; "
                "cuBLAS picks its kernel and launch"
              : "cublasGemmEx (CUBLAS_COMPUTE_32F_FAST_TF32: TF32 tensor cores, ~1e-3 relative), "
                "C^T = B^T A^T in column-major; cuBLAS picks its kernel and launch";
      return;
  }
  l.occupancy = ks::cuda::occupancy_of(device, k);  // validates the block against the device and the kernel
  l.block = block;
  const long long tile_x = variant == MatmulVariant::Regtiled ? kRegTile : block.x;
  const long long tile_y = variant == MatmulVariant::Regtiled ? kRegTile : block.y;
  l.grid_x = blocks_for(shape.n, tile_x);
  l.grid_y = blocks_for(shape.m, tile_y);  // <= 8192: within every device's 65535 grid rows
  l.description = std::to_string(l.grid_x) + " x " + std::to_string(l.grid_y) + " blocks of " + b +
                  " threads, " + std::to_string(l.c_per_thread) +
                  (l.c_per_thread == 1 ? " element" : " elements") + " of C per thread, " +
                  (variant == MatmulVariant::Naive
                       ? std::string("no shared tiles")
                       : std::to_string(tile_y) + "x" + std::to_string(tile_x) + " tiles of C per block");
}

MatmulRunner::~MatmulRunner() = default;

const MatmulLaunch& MatmulRunner::launch() const noexcept {
  return impl_->launch;
}

void MatmulRunner::run(const float* d_a, const float* d_b, float* d_c, void* stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const MatmulShape& sh = impl_->shape;
  const MatmulLaunch& l = impl_->launch;
  const int m = int(sh.m), n = int(sh.n), k = int(sh.k);
  const dim3 grid(unsigned(l.grid_x), unsigned(l.grid_y)), block(unsigned(l.block.x), unsigned(l.block.y));
  const float one = 1.0f, zero = 0.0f;
  switch (l.variant) {
    case MatmulVariant::Naive:
      kernels::matmul_naive_kernel<<<grid, block, 0, s>>>(d_a, d_b, d_c, m, n, k);
      break;
    case MatmulVariant::Tiled:
      if (l.block.x == 8) kernels::matmul_tiled_kernel<8><<<grid, block, 0, s>>>(d_a, d_b, d_c, m, n, k);
      if (l.block.x == 16) kernels::matmul_tiled_kernel<16><<<grid, block, 0, s>>>(d_a, d_b, d_c, m, n, k);
      if (l.block.x == 32) kernels::matmul_tiled_kernel<32><<<grid, block, 0, s>>>(d_a, d_b, d_c, m, n, k);
      break;
    case MatmulVariant::Regtiled:
      if (vector_path(sh, d_a, d_b, d_c))
        kernels::matmul_regtiled_kernel<true><<<grid, block, 0, s>>>(d_a, d_b, d_c, m, n, k);
      else
        kernels::matmul_regtiled_kernel<false><<<grid, block, 0, s>>>(d_a, d_b, d_c, m, n, k);
      break;
    // Row-major C = A B is column-major C^T = B^T A^T: hand cuBLAS B as the first operand (n x k, leading
    // dimension n) and A as the second (k x m, leading dimension k).
    case MatmulVariant::Cublas:
      check_cublas(cublas_api().set_stream(impl_->cublas, s), "cublasSetStream");
      check_cublas(
          cublas_api().sgemm(impl_->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d_b, n, d_a, k, &zero, d_c, n),
          "cublasSgemm");
      return;
    case MatmulVariant::CublasTf32:
      check_cublas(cublas_api().set_stream(impl_->cublas, s), "cublasSetStream");
      check_cublas(cublas_api().gemm_ex(impl_->cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d_b, CUDA_R_32F,
                                        n, d_a, CUDA_R_32F, k, &zero, d_c, CUDA_R_32F, n,
                                        CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmEx (TF32)");
      return;
  }
  ks::cuda::check_launch(l.occupancy.kernel_name);
}

}  // namespace ks::lab
