// Built only without the CUDA backend: interop is never available, and says so.
#include "core/error.hpp"
#include "render/interop/interop_target.hpp"

namespace ks::ui {

namespace {
const char* const kNoCuda = "this build of kernelscope has no CUDA backend";
}

const char* to_string(InteropWrite method) noexcept {
  return method == InteropWrite::ArrayCopy ? "cudaMemcpy2DToArray" : "surface writes";
}

std::string interop_unavailable_reason(int) { return kNoCuda; }

struct InteropTarget::Impl {};

InteropTarget::InteropTarget(std::vector<TextureTile>, int) { throw Error(ErrorKind::Device, kNoCuda); }
InteropTarget::~InteropTarget() = default;
void InteropTarget::write(const DeviceImageRef&, InteropWrite) { throw Error(ErrorKind::Device, kNoCuda); }

}  // namespace ks::ui
