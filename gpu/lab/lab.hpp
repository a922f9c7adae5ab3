#pragma once
// The basics lab, as the CLI (`kernelscope-cli lab`, `bench`) and the GUI drive it. No Qt, no GL.
//
//   Runtime runtime;  // or the process's Engine, which is one
//   lab::LabRequest req;
//   req.kernel = "vecadd";
//   req.size = lab::LabSize::elements(1 << 28);
//   req.params = KernelRegistry::builtin().get("vecadd").default_params();
//   req.backend = Backend::Cuda;
//   req.variant = "vector4";
//   req.host = lab::HostMode::Pinned;
//   req.streams = 4;
//   lab::LabResult r = lab::run_lab(runtime, req);  // r.report: launch arithmetic, upload/kernel/download,
//                                                   // GB/s, % of the copy bandwidth, the check, the timeline
//
// Everything about the request (kernel, size and its limits, parameters, variant, block against the device and
// the kernel, host mode, streams, the user's arrays, host and device memory) is checked before any memory is
// taken (check_lab_request does just that, for a GUI that wants to refuse a value at once).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "core/ndarray.hpp"
#include "lab/host_mode.hpp"
#include "lab/lab_kernel.hpp"
#include "lab/lab_report.hpp"
#include "lab/lab_size.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"

namespace ks {
class Runtime;
}

namespace ks::lab {

struct LabRequest {
  std::string kernel;              // registry id of a lab kernel
  std::optional<LabSize> size;     // empty: the kernel's default size (Image form: the image's size)
  ParamSet params;                 // checked values (start from spec.default_params())
  Backend backend = Backend::Cpu;
  std::string variant;             // empty: "cpu" on the CPU backend, the kernel's last CUDA variant on CUDA
  std::optional<BlockShape> block; // CUDA only; empty: the kernel's default
  HostMode host = HostMode::Pageable;  // CUDA only (the CPU backend takes pageable only)
  int streams = 1;                 // >= 1; > 1 needs a kernel that splits, the CUDA backend and a mode with copies
  int chunks = 0;                  // with streams > 1: chunks (>= streams); 0: 4 per stream; < 0 is refused
  int warmup = 1;
  int repeat = 5;
  std::uint64_t seed = 1;
  bool check = true;               // run the CPU reference and compare (a CUDA run, or a CPU variant but "cpu")
  std::vector<NdArray> inputs;     // input arrays given by the user (NdArray::name = the kernel's array name)
  std::vector<std::string> keep;   // names of arrays to hand back in LabResult::arrays after the run
  std::optional<Image> image;      // SizeForm::Image kernels: the loaded image
  bool counters = false;           // CUDA: the hardware counters of one more launch (LabReport::counters)
};

struct LabResult {
  LabReport report;
  std::vector<NdArray> arrays;  // the arrays named in `keep`, after the run (the CUDA run's on CUDA)
  std::optional<Image> image;   // what the kernel's result_image gave (kmeans: the quantised image)
};

// The lab kernel behind a registry id; usage Error when the id is unknown or not a lab kernel.
const LabKernel& find_lab_kernel(const std::string& id);
// The variant a request gets when it names none: "cpu", or the kernel's last CUDA variant.
std::string default_lab_variant(const LabKernel& kernel, Backend backend);

// Every check of run_lab that needs no memory. `with_device` (CUDA requests): also the block against the device
// and the kernel, and the free device memory; without it nothing touches the device, so a front end can refuse
// a bad request (exit 2) before it asks for a GPU (exit 1 where there is none). Throws.
void check_lab_request(Runtime& runtime, const LabRequest& request, bool with_device = true);
// An explicit chunk count (--chunks C): below 1 is refused, saying that chunks only apply with --streams K > 1.
void check_chunk_count(int chunks);

LabResult run_lab(Runtime& runtime, const LabRequest& request, const LabRunControl& control = {});

}  // namespace ks::lab
