// Built only without the CUDA backend: interop is never available, and says so.
#include "core/no_cuda.hpp"
#include "render/interop/interop_target.hpp"

namespace ks::ui {

const char* to_string(InteropWrite method) noexcept {
  return method == InteropWrite::ArrayCopy ? "cudaMemcpy2DToArray" : "surface writes";
}

std::string interop_unavailable_reason(int) { return kNoCudaBackend; }

struct InteropTarget::Impl {};

InteropTarget::InteropTarget(std::vector<TextureTile>, int) { throw_no_cuda(); }
InteropTarget::~InteropTarget() = default;
void InteropTarget::write(const DeviceImageRef&, InteropWrite) { throw_no_cuda(); }

}  // namespace ks::ui
