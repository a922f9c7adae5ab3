#include "core/cuda/check.cuh"
#include "stencil/cuda/alpha_copy.cuh"

namespace ks::cuda {

namespace {

template <class T>
__global__ void copy_alpha_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                  std::size_t dst_pitch, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const T* s = reinterpret_cast<const T*>(src + std::size_t(y) * src_pitch);
  T* d = reinterpret_cast<T*>(dst + std::size_t(y) * dst_pitch);
  d[4 * x + 3] = s[4 * x + 3];
}

}  // namespace

void copy_alpha_on_device(const void* src, std::size_t src_pitch, void* dst, std::size_t dst_pitch,
                          const ImageShape& shape, cudaStream_t stream) {
  if (shape.channels != 4) throw Error(ErrorKind::Internal, "copy_alpha_on_device needs a 4-channel image");
  const dim3 block(32, 8);
  const dim3 grid((unsigned(shape.width) + block.x - 1) / block.x, (unsigned(shape.height) + block.y - 1) / block.y);
  const auto* s = static_cast<const unsigned char*>(src);
  auto* d = static_cast<unsigned char*>(dst);
  switch (shape.type) {
    case ElemType::U8:
      copy_alpha_kernel<unsigned char><<<grid, block, 0, stream>>>(s, src_pitch, d, dst_pitch, shape.width, shape.height);
      break;
    case ElemType::U16:
      copy_alpha_kernel<unsigned short><<<grid, block, 0, stream>>>(s, src_pitch, d, dst_pitch, shape.width, shape.height);
      break;
    case ElemType::F32:
      copy_alpha_kernel<float><<<grid, block, 0, stream>>>(s, src_pitch, d, dst_pitch, shape.width, shape.height);
      break;
  }
  check_launch("copy_alpha_kernel");
}

}  // namespace ks::cuda
