// CUDA side of the display: registered GL textures, mapped for each new result, written, unmapped.
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "core/cuda/check.cuh"
#include "core/cuda/stream.cuh"
#include "core/device_info.hpp"
#include "render/interop/interop_target.hpp"

namespace ks::ui {

const char* to_string(InteropWrite method) noexcept {
  return method == InteropWrite::ArrayCopy ? "cudaMemcpy2DToArray" : "surface writes";
}

std::string interop_unavailable_reason(int cuda_device) {
  if (std::string why = no_device_reason(); !why.empty()) return why;
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const std::string gl_name = renderer ? renderer : "an unknown GL renderer";
  unsigned count = 0;
  int devices[16] = {};
  const cudaError_t status = cudaGLGetDevices(&count, devices, 16, cudaGLDeviceListAll);
  if (status != cudaSuccess || count == 0) {
    cudaGetLastError();  // not sticky: clear it so that later CUDA calls do not report it
    return "the GL context runs on " + gl_name + ", not on a CUDA device (cudaGLGetDevices: " +
           (status != cudaSuccess ? cudaGetErrorString(status) : "no device") + ")";
  }
  if (std::find(devices, devices + count, cuda_device) == devices + count)
    return "the GL context runs on CUDA device " + std::to_string(devices[0]) + " (" + gl_name +
           ") while the results are on device " + std::to_string(cuda_device);
  return {};
}

namespace {

// One thread per texel; the pixel's bytes move as one unsigned integer type of their size, which surf2Dwrite
// stores into any texel format of that size (R8, RGBA8, R32F, RGBA32F, ...).
template <class Word>
__global__ void write_surface_kernel(cudaSurfaceObject_t surface, const unsigned char* src, std::size_t pitch,
                                     int x0, int y0, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const Word* row = reinterpret_cast<const Word*>(src + std::size_t(y0 + y) * pitch);
  surf2Dwrite(row[x0 + x], surface, int(x * sizeof(Word)), y);
}

void write_surface(cudaArray_t array, const DeviceImageRef& src, const TileRect& r, cudaStream_t stream) {
  cudaResourceDesc desc{};
  desc.resType = cudaResourceTypeArray;
  desc.res.array.array = array;
  cudaSurfaceObject_t surface = 0;
  cuda::check(cudaCreateSurfaceObject(&surface, &desc), "cudaCreateSurfaceObject (display texture)");
  const dim3 block(32, 8);
  const dim3 grid((unsigned(r.width) + block.x - 1) / block.x, (unsigned(r.height) + block.y - 1) / block.y);
  const auto* data = static_cast<const unsigned char*>(src.data);
  const std::size_t pixel_bytes = std::size_t(src.shape.channels) * elem_size(src.shape.type);
  switch (pixel_bytes) {
    case 1: write_surface_kernel<unsigned char><<<grid, block, 0, stream>>>(surface, data, src.pitch, r.x, r.y, r.width, r.height); break;
    case 2: write_surface_kernel<unsigned short><<<grid, block, 0, stream>>>(surface, data, src.pitch, r.x, r.y, r.width, r.height); break;
    case 4: write_surface_kernel<unsigned int><<<grid, block, 0, stream>>>(surface, data, src.pitch, r.x, r.y, r.width, r.height); break;
    case 8: write_surface_kernel<uint2><<<grid, block, 0, stream>>>(surface, data, src.pitch, r.x, r.y, r.width, r.height); break;
    case 16: write_surface_kernel<uint4><<<grid, block, 0, stream>>>(surface, data, src.pitch, r.x, r.y, r.width, r.height); break;
    default:
      cudaDestroySurfaceObject(surface);
      throw Error(ErrorKind::Internal, "no surface write for " + std::to_string(pixel_bytes) + "-byte pixels");
  }
  const cudaError_t launch = cudaGetLastError();
  cudaDestroySurfaceObject(surface);  // after the launch is enqueued: the kernel keeps what it needs
  cuda::check(launch, "launch of write_surface_kernel (display texture)");
}

void write_copy(cudaArray_t array, const DeviceImageRef& src, const TileRect& r, cudaStream_t stream) {
  const std::size_t pixel_bytes = std::size_t(src.shape.channels) * elem_size(src.shape.type);
  const auto* origin = static_cast<const unsigned char*>(src.data) + std::size_t(r.y) * src.pitch +
                       std::size_t(r.x) * pixel_bytes;
  cuda::check(cudaMemcpy2DToArrayAsync(array, 0, 0, origin, src.pitch, std::size_t(r.width) * pixel_bytes,
                                       std::size_t(r.height), cudaMemcpyDeviceToDevice, stream),
              "cudaMemcpy2DToArrayAsync (display texture)");
}

}  // namespace

struct InteropTarget::Impl {
  std::vector<TextureTile> tiles;
  std::vector<cudaGraphicsResource_t> resources;
  int device = 0;
  cuda::Stream stream;

  ~Impl() {
    for (cudaGraphicsResource_t r : resources) cudaGraphicsUnregisterResource(r);
  }
};

// Unmaps on every way out of write(), a failed copy included, so that GL can use the textures again.
class Mapping {
 public:
  Mapping(std::vector<cudaGraphicsResource_t>& resources, cudaStream_t stream) : resources_(resources), stream_(stream) {
    cuda::check(cudaGraphicsMapResources(int(resources_.size()), resources_.data(), stream_),
                "cudaGraphicsMapResources (display texture)");
  }
  ~Mapping() {
    if (released_ || resources_.empty()) return;
    cudaGraphicsUnmapResources(int(resources_.size()), resources_.data(), stream_);
  }
  void unmap() {
    cuda::check(cudaGraphicsUnmapResources(int(resources_.size()), resources_.data(), stream_),
                "cudaGraphicsUnmapResources (display texture)");
    released_ = true;
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

 private:
  std::vector<cudaGraphicsResource_t>& resources_;
  cudaStream_t stream_;
  bool released_ = false;
};

InteropTarget::InteropTarget(std::vector<TextureTile> tiles, int cuda_device) : impl_(std::make_unique<Impl>()) {
  cuda::check(cudaSetDevice(cuda_device), "cudaSetDevice (display)");
  impl_->device = cuda_device;
  impl_->tiles = std::move(tiles);
  for (const TextureTile& tile : impl_->tiles) {
    cudaGraphicsResource_t resource = nullptr;
    cuda::check(cudaGraphicsGLRegisterImage(&resource, tile.texture, GL_TEXTURE_2D,
                                            cudaGraphicsRegisterFlagsSurfaceLoadStore),
                "cudaGraphicsGLRegisterImage (display texture)");
    impl_->resources.push_back(resource);
    // The old texels never matter: every write replaces the whole texture.
    cuda::check(cudaGraphicsResourceSetMapFlags(resource, cudaGraphicsMapFlagsWriteDiscard),
                "cudaGraphicsResourceSetMapFlags");
  }
}

InteropTarget::~InteropTarget() = default;

void InteropTarget::write(const DeviceImageRef& src, InteropWrite method) {
  if (!src) throw Error(ErrorKind::Internal, "interop write without a device image");
  cuda::check(cudaSetDevice(impl_->device), "cudaSetDevice (display)");
  const cudaStream_t stream = impl_->stream.get();
  {
    Mapping mapping(impl_->resources, stream);
    for (std::size_t i = 0; i < impl_->tiles.size(); ++i) {
      const TileRect& r = impl_->tiles[i].rect;
      if (r.x + r.width > src.shape.width || r.y + r.height > src.shape.height)
        throw Error(ErrorKind::Internal, "interop write of a result smaller than its display texture");
      cudaArray_t array = nullptr;
      cuda::check(cudaGraphicsSubResourceGetMappedArray(&array, impl_->resources[i], 0, 0),
                  "cudaGraphicsSubResourceGetMappedArray (display texture)");
      if (method == InteropWrite::ArrayCopy) write_copy(array, src, r, stream);
      else write_surface(array, src, r, stream);
    }
    mapping.unmap();
  }
  cuda::check(cudaStreamSynchronize(stream), "waiting for the display copy");
}

}  // namespace ks::ui
