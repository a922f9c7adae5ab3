#pragma once
// The plugin interface of the basics lab: what one lab kernel (vecadd, saxpy, reduce, integrate2d, matmul, sort,
// kmeans) supplies, and what the framework (gpu/lab/lab.hpp: run_lab) does with it. No CUDA headers here: device
// pointers and streams are void*; the .cu files cast them (cudaStream_t).
//
// ==== How to add a lab kernel ================================================================================
// 1. Write the family's files under gpu/lab/<family>/ (e.g. gpu/lab/reduce/): a class deriving from LabKernel
//    (one .cpp: info, arrays, cost, fill, run_cpu, compare, describe) and its CUDA variants (one or more .cu
//    files: classes deriving from LabCudaRun, made by a factory declared in a header without CUDA headers).
//    In the LabKernel's make_cuda_run, call the factory inside `#if KS_HAVE_CUDA` (the .cu files are not
//    compiled without nvcc; ks_gpu defines KS_HAVE_CUDA when they are), so no *_nocuda.cpp stub is needed.
// 2. A function `void add_<family>_kernels(LabKernelList&)` that appends the family's kernels, and ONE line in
//    gpu/lab/lab_kernels.cpp calling it (plus its declaration there). The framework registers each kernel in
//    the registry (category "lab", KernelSpec::lab points back at it); `list`, `lab`, `bench` and the GUI
//    find it from there.
// 3. What the kernel supplies (LabKernel below):
//    - info(): id, title, description, parameters (ParamSpec: ranges, help), variants (the CPU reference named
//      "cpu" first; more CPU variants may follow, e.g. sort's "cpu_parallel"; then the CUDA ones, library ones
//      too: "cub", "cublas"; each with the files of its code for the app's Source panel, VariantSpec::sources:
//      the file and the text of the function it runs, e.g. {"gpu/lab/vecadd/vecadd_cuda.cu", "vec_naive("} or
//      for a library variant the call, {"gpu/lab/matmul/cuda/matmul_cuda.cu", "cublas_api().sgemm("}; a .cpp, .cu or
//      .cuh file, which the build embeds, not a .hpp), the size form (n, NxM, MxNxK or the loaded image) and
//      its limits (SizeLimits: vecadd n 1..2^30), the default size, whether the work splits into independent
//      chunks (`splits`: needed for --streams K > 1; vecadd/saxpy/reduce yes, matmul/sort/kmeans no — the
//      framework refuses them), the block rank (1: "--block 256" means 256x1; 2: WxH, e.g. matmul 16x16) and
//      the default block.
//    - check(): further usage checks of size + parameters + variant that the limits cannot say (kmeans: K
//      larger than the pixel count; integrate2d: a rectangle of zero width). Called before any memory is taken.
//    - arrays(): the host arrays of one run, in a fixed order (the index is how every other call finds them):
//      name, element type (f32/f64/u32/...), shape (1-D {n} or 2-D {rows, cols}: .npy files use it), role
//      (Input: uploaded; Output: downloaded and compared; InOut: both, e.g. sort's keys), and for kernels that
//      split, how each array splits (Sliced by its first dimension; Whole: every chunk sees all of it;
//      PerChunk: an output of which each chunk writes its own copy, merged on the host by combine()).
//      The framework allocates them in the requested host memory mode (pageable, pinned, mapped, managed,
//      managed-prefetch), and device copies where the mode needs them; sizes and free memory are checked first.
//    - cost(): the bytes that must move (inputs read once, outputs written once) and the arithmetic operations
//      (an FMA counts 2), for GB/s, GFLOP/s, % of the copy bandwidth and the roofline; or, where
//      LabInfo::operations says so (sort), comparisons, reported as such and kept off the FLOP roof.
//    - fill(): the inputs from the seed (deterministic: the same seed gives the same bytes whatever the thread
//      count; lab_fill.hpp has threaded helpers), the parameters or the loaded image. Arrays the user gave as
//      .npy files (--in NAME=FILE.npy, checked against type and shape) replace the filled ones afterwards.
//    - run_cpu(): every CPU variant ("cpu", the reference, threaded on the ThreadPool), on host arrays; checks
//      control.cancelled() between pieces of long work (throw_if_cancelled).
//    - make_cuda_run(): a LabCudaRun for one CUDA variant at one size, parameters and block. Its constructor
//      validates the block (core/cuda/launch_check.cuh: validate_launch / occupancy_of; a usage Error for a
//      shape the kernel cannot use) and does untimed setup (a cuBLAS handle); nothing is allocated by the
//      framework before it returns. Its launch() runs on device pointers in the given stream; before_launch()
//      is an untimed hook before every timed launch (restore an input the kernel destroys, zero an accumulator
//      — though InOut arrays are already fresh: they are uploaded, or restored in mapped/managed memory, before
//      every timed launch). workspace_bytes() asks the framework for device scratch (per stream; counted in the
//      memory check); geometry() gives grid, block and occupancy of the main kernel for the launch arithmetic.
//    - compare(): the CUDA outputs against the CPU reference's -> LabCheck (lab_check.hpp helpers: exact for
//      integers, relative tolerance for f32 elementwise, a bound the kernel derives for sums).
//    - describe(): facts for the report (reduce: the sum, the exact value, the error against a compensated sum;
//      matmul: "TF32 tensor cores"), series (kmeans: inertia per iteration), from the outputs of the run.
//    - result_image(): an image the run produced (kmeans: the quantised image), if any (set info().makes_image).
//    - combine(): kernels with PerChunk outputs merge the chunks' copies (reduce: add the partial sums).
// =============================================================================================================
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/device_info.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "core/occupancy.hpp"
#include "lab/lab_size.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"

namespace ks {
class ThreadPool;
}

namespace ks::lab {

// ---- Arrays --------------------------------------------------------------------------------------------------

enum class ArrayRole { Input, Output, InOut };
// How an array is cut for --streams K (kernels with LabInfo::splits only; others ignore it).
enum class ArraySplit {
  Sliced,    // by its first dimension, like the elements: chunk [begin, end) sees rows begin..end-1
  Whole,     // every chunk sees the whole array (an input table); not for outputs
  PerChunk,  // an output each chunk writes a copy of (a partial sum); LabKernel::combine merges them
};

struct ArraySpec {
  std::string name;  // "a", "keys", "C": what --in/--out NAME=FILE.npy name
  DType type = DType::F32;
  std::vector<std::int64_t> shape;  // {n} or {rows, cols}; C order
  ArrayRole role = ArrayRole::Input;
  ArraySplit split = ArraySplit::Sliced;
  std::string help;

  std::int64_t count() const noexcept;  // product of the shape
  std::size_t bytes() const noexcept { return std::size_t(count()) * dtype_size(type); }
  bool is_input() const noexcept { return role != ArrayRole::Output; }
  bool is_output() const noexcept { return role != ArrayRole::Input; }
};
std::string shape_text(const std::vector<std::int64_t>& shape);  // "(1048576)", "(512, 256)"

// A host (or, in a LabLaunch, device-visible) array of a run: its spec and where its elements are.
struct ArrayView {
  const ArraySpec* spec = nullptr;
  void* data = nullptr;
  std::int64_t count = 0;  // elements here (a chunk's slice may be shorter than spec->count())

  std::size_t bytes() const noexcept { return std::size_t(count) * dtype_size(spec->type); }
  // Typed view; an Internal error when T is not the array's type (a bug of the kernel).
  template <class T>
  std::span<T> as() const {
    if (dtype_of<std::remove_const_t<T>>() != spec->type)
      throw Error(ErrorKind::Internal, "array '" + spec->name + "' is " + to_string(spec->type) + ", read as " +
                                           to_string(dtype_of<std::remove_const_t<T>>()));
    return {static_cast<T*>(data), std::size_t(count)};
  }
};
// Indexed like LabKernel::arrays(): views[i] is array i.
using ArrayViews = std::vector<ArrayView>;

// ---- Run control ---------------------------------------------------------------------------------------------

// Progress and cancellation for long work (a CPU reference of matmul 8192^3, the GUI's size sweep). Both may
// be left empty. The callback gets a fraction 0..1 of the current stage and the stage's name.
struct LabRunControl {
  std::function<void(double fraction, const std::string& stage)> progress;
  const std::atomic<bool>* cancel = nullptr;

  bool cancelled() const noexcept { return cancel && cancel->load(std::memory_order_relaxed); }
  void report(double fraction, const std::string& stage) const {
    if (progress) progress(fraction, stage);
  }
};
// A Cancelled error ("the lab run was cancelled") when control.cancelled().
void throw_if_cancelled(const LabRunControl& control);

// ---- The check against the CPU reference and the facts of a run ---------------------------------------------

struct LabCheck {
  bool checked = false;      // false: no comparison (the CPU reference itself, or --no-check)
  bool agrees = false;
  double max_abs_error = 0;  // over every compared element
  double max_rel_error = 0;
  double bound = 0;          // what an error was allowed to be (relative, or absolute for sums: see detail)
  std::string detail;        // one line: "exact: 1048576 u32 keys identical", "max rel error 0 <= 1e-5", ...
};

struct LabFact {
  std::string name;   // "sum", "exact value", "error vs compensated sum", "tensor cores"
  std::string value;  // as printed
  std::optional<double> number;  // the value as a number, when it is one (JSON carries both)
};
struct LabSeries {
  std::string name;     // "inertia"
  std::string x_label;  // "iteration"
  std::vector<double> values;
};
struct LabFacts {
  std::vector<LabFact> facts;
  std::vector<LabSeries> series;
  std::vector<std::string> notes;
  void add(std::string name, std::string value, std::optional<double> number = std::nullopt) {
    facts.push_back({std::move(name), std::move(value), number});
  }
};

// ---- The kernel's description --------------------------------------------------------------------------------

// What a kernel's cost().operations count: floating-point operations, whose roof is the f32 FMA peak (GFLOP/s,
// FLOP per byte), or key comparisons (sort), which are no FLOPs: reported as comparisons, off the FLOP roof.
enum class OperationKind { Flop, Comparison };
const char* to_string(OperationKind k) noexcept;  // "flop" | "comparison"

struct LabInfo {
  std::string id;     // "vecadd"
  std::string title;  // "Vector add"
  std::string description;
  std::vector<ParamSpec> params;
  std::vector<VariantSpec> variants;  // "cpu" first (Backend::Cpu), then other CPU variants, then CUDA ones
  SizeForm form = SizeForm::Elements;
  SizeLimits limits;
  LabSize default_size;
  bool splits = false;    // --streams K > 1: the elements cut into independent chunks
  bool makes_image = false;  // result_image() gives an image (kmeans): `lab -o OUT.png` writes it
  int block_rank = 1;     // 1: --block B (= Bx1); 2: --block WxH
  BlockShape default_block{256, 1};
  OperationKind operations = OperationKind::Flop;  // what cost().operations counts
  // `bench` sizes when --sizes is not given: with CUDA, and on the CPU alone (smaller).
  std::vector<LabSize> bench_sizes_cuda, bench_sizes_cpu;
  std::vector<BlockShape> bench_blocks;  // `bench` blocks for the CUDA variants when --blocks is not given
};

// What a CUDA variant is built for (LabKernel::make_cuda_run).
struct CudaSetup {
  std::string variant;
  LabSize size;             // the whole run's size (a chunk may be smaller: see LabLaunch::size)
  const ParamSet* params = nullptr;
  BlockShape block;
  const DeviceInfo* device = nullptr;
};

// One launch of a CUDA variant on a piece of work: the whole size, or one chunk of a --streams run.
struct LabLaunch {
  ArrayViews arrays;         // device-visible pointers, indexed like arrays(); a chunk's slices for Sliced arrays
  LabSize size;              // the piece's size: a chunk's n
  std::int64_t offset = 0;   // the piece's first element in the whole run (0 without chunks)
  void* stream = nullptr;    // a cudaStream_t
  void* workspace = nullptr; // workspace_bytes(size) of device scratch, this stream's own
  std::size_t workspace_bytes = 0;
};

// Grid, block and occupancy of the main kernel of a launch, for the launch arithmetic of the report.
struct LaunchGeometry {
  std::int64_t grid_x = 0, grid_y = 1;
  BlockShape block{1, 1};
  std::int64_t work_items = 0;  // independent items the threads cover (n; n/4 float4s; M*N outputs; ...)
  OccupancyReport occupancy;
};

// One CUDA variant prepared for one run. Made before the framework allocates anything; lives for the run.
class LabCudaRun {
 public:
  virtual ~LabCudaRun() = default;
  // Device scratch this variant needs per stream for a piece of this size (reduce's partials, CUB's temp).
  virtual std::size_t workspace_bytes(const LabSize& piece) const {
    (void)piece;
    return 0;
  }
  // The main kernel's launch for a piece of this size; nullopt for library variants (CUB, cuBLAS).
  virtual std::optional<LaunchGeometry> geometry(const LabSize& piece) const {
    (void)piece;
    return std::nullopt;
  }
  // Untimed, on launch.stream, before each timed launch (after the inputs were uploaded).
  virtual void before_launch(const LabLaunch& launch) { (void)launch; }
  // The timed work, enqueued on launch.stream (no synchronisation needed; the framework times with events).
  virtual void launch(const LabLaunch& launch) = 0;
  // Facts about how it ran ("TF32 tensor cores", "CUB DeviceReduce::Sum"), added to the report.
  virtual void describe(LabFacts& facts) const { (void)facts; }
};

// The inputs fill() gets (besides the arrays).
struct FillContext {
  LabSize size;
  const ParamSet* params = nullptr;
  std::uint64_t seed = 1;
  const Image* image = nullptr;  // SizeForm::Image kernels: the loaded image, converted to f32 (its channels)
  ThreadPool* pool = nullptr;
};

// What a CPU variant runs on.
struct CpuRun {
  std::string variant;
  const ArrayViews* arrays = nullptr;  // inputs filled, outputs to write, InOut arrays to change in place
  LabSize size;
  const ParamSet* params = nullptr;
  ThreadPool* pool = nullptr;
  const LabRunControl* control = nullptr;
};

class LabKernel {
 public:
  virtual ~LabKernel() = default;

  virtual const LabInfo& info() const = 0;
  // Usage checks beyond info().limits (the framework checks those, the variant and the block rank first).
  virtual void check(const LabSize& size, const ParamSet& params, const std::string& variant) const {
    (void)size, (void)params, (void)variant;
  }
  virtual std::vector<ArraySpec> arrays(const LabSize& size, const ParamSet& params) const = 0;
  virtual CostModel cost(const LabSize& size, const ParamSet& params) const = 0;
  // Fills every Input and InOut array (Output arrays are null in `arrays`).
  virtual void fill(const ArrayViews& arrays, const FillContext& context) const = 0;
  virtual void run_cpu(const CpuRun& run) const = 0;
  virtual std::unique_ptr<LabCudaRun> make_cuda_run(const CudaSetup& setup) const = 0;
  // `reference` and `result` hold the same arrays (outputs and InOut arrays after the run; inputs as given).
  // `pool` is there to compare 2^30 elements in parallel (lab_check.hpp's helpers take it).
  virtual LabCheck compare(const ArrayViews& reference, const ArrayViews& result, const LabSize& size,
                           const ParamSet& params, ThreadPool& pool) const = 0;
  // The check of one variant's outputs: what run_lab calls. By default compare(); kernels whose variants differ
  // in precision override it (matmul: TF32 tensor cores are checked within a looser bound than FP32).
  virtual LabCheck compare_variant(const std::string& variant, const ArrayViews& reference, const ArrayViews& result,
                                   const LabSize& size, const ParamSet& params, ThreadPool& pool) const {
    (void)variant;
    return compare(reference, result, size, params, pool);
  }
  // Facts and series from the run's arrays (inputs and outputs).
  virtual void describe(const ArrayViews& arrays, const LabSize& size, const ParamSet& params,
                        LabFacts& facts) const {
    (void)arrays, (void)size, (void)params, (void)facts;
  }
  virtual std::optional<Image> result_image(const ArrayViews& arrays, const LabSize& size,
                                            const ParamSet& params) const {
    (void)arrays, (void)size, (void)params;
    return std::nullopt;
  }
  // PerChunk outputs: chunks[c] are chunk c's views (only the PerChunk arrays are set); write `outputs`.
  virtual void combine(std::span<const ArrayViews> chunks, const ArrayViews& outputs) const {
    (void)chunks, (void)outputs;
    throw Error(ErrorKind::Internal, "lab kernel '" + info().id + "' has PerChunk arrays but no combine()");
  }
};

using LabKernelList = std::vector<std::shared_ptr<const LabKernel>>;

// "size: n from 1 to 2^30 (default 2^24); --streams: splits into chunks; block: 1-D, default 256" (list).
std::string describe_size(const LabInfo& info);

// Every lab kernel (gpu/lab/lab_kernels.cpp: one line per family).
LabKernelList builtin_lab_kernels();
// The registry entry of a lab kernel: category "lab", KernelSpec::lab pointing at it.
KernelSpec lab_kernel_spec(std::shared_ptr<const LabKernel> kernel);

}  // namespace ks::lab
