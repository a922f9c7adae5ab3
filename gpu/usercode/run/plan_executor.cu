#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda/device_buffer.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/cuda/stream.cuh"
#include "core/cuda_context.hpp"
#include "core/error.hpp"
#include "usercode/check/check_record.hpp"
#include "usercode/run/plan_executor.hpp"

namespace ks::usercode {

namespace {

// A loaded module (RAII): unloaded when the executor goes.
class Library {
 public:
  explicit Library(cudaLibrary_t lib) : lib_(lib) {}
  Library(Library&& o) noexcept : lib_(std::exchange(o.lib_, nullptr)) {}
  Library& operator=(Library&&) = delete;
  Library(const Library&) = delete;
  ~Library() {
    if (lib_) cudaLibraryUnload(lib_);
  }
  cudaLibrary_t get() const { return lib_; }

 private:
  cudaLibrary_t lib_ = nullptr;
};

// How many modules stay loaded: an editing session compiles a new one at every pause in typing.
constexpr std::size_t kLoadedModules = 16;

// What a fault at a launch means, in a learner's words.
std::string fault_words(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
      return "your kernel accessed memory outside its buffers (illegal address)";
    case cudaErrorMisalignedAddress:
      return "your kernel accessed memory at a misaligned address (a value read or written at an address that is "
             "not a multiple of its size)";
    case cudaErrorAssert:
      return "an assert() in your kernel failed (the worker's standard error shows which)";
    case cudaErrorIllegalInstruction:
      return "your kernel executed an illegal instruction (a trap: __trap() or asm(\"trap;\"))";
    case cudaErrorLaunchFailure:
      return "your kernel stopped with an unspecified launch failure (a trap, or a fault the GPU could not "
             "attribute)";
    case cudaErrorHardwareStackError:
      return "your kernel overflowed its stack (deep or unbounded recursion?)";
    default:
      return std::string("your kernel failed: ") + cudaGetErrorString(e);
  }
}

std::string dims(const dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

WorkerReply failure(RunOutcome outcome, cudaError_t e, std::string message) {
  WorkerReply r;
  r.outcome = outcome;
  r.cuda_error = cudaGetErrorName(e);
  r.message = std::move(message);
  return r;
}

// Host images of a ks::InImage<T> / ks::OutImage<T> argument, laid out as the prelude's structs: the pointer,
// four ints, then (InImage) the border and the constant value of T, padded to 8 bytes.
struct alignas(8) ArgumentBytes {
  unsigned char bytes[32] = {};
};

ArgumentBytes image_argument(const LaunchArgument& a, void* data) {
  ArgumentBytes out;
  std::memcpy(out.bytes, &data, sizeof data);
  const int fields[4] = {a.image.width, a.image.height, a.image.channels, a.image.pitch};
  std::memcpy(out.bytes + 8, fields, sizeof fields);
  if (a.kind == ArgumentKind::InImage) {
    std::memcpy(out.bytes + 24, &a.image.border, sizeof(int));
    if (a.image.element_bytes == 1) {
      const auto v = static_cast<unsigned char>(a.image.constant_value);
      std::memcpy(out.bytes + 28, &v, 1);
    } else {
      const auto v = static_cast<float>(a.image.constant_value);
      std::memcpy(out.bytes + 28, &v, 4);
    }
  }
  return out;
}

}  // namespace

// How many named inputs stay on the GPU (the app's image, and the one before it while it changes).
constexpr std::size_t kHeldInputs = 2;

struct PlanExecutor::Impl {
  std::map<std::string, Library> libraries;
  std::vector<std::string> load_order;  // oldest first
  struct HeldInput {
    std::string key;
    cuda::DeviceBuffer buffer;
  };
  std::vector<HeldInput> inputs;  // oldest first
  // The last run's own buffers: the next run of the same sizes (an edit of the kernel, the next step request)
  // takes them instead of allocating and freeing its own.
  std::vector<cuda::DeviceBuffer> spare;
  std::vector<void*> pinned;

  void hold(std::string key, cuda::DeviceBuffer buffer) {
    std::erase_if(inputs, [&](const HeldInput& h) { return h.key == key; });
    if (inputs.size() >= kHeldInputs) inputs.erase(inputs.begin());
    inputs.push_back({std::move(key), std::move(buffer)});
  }

  // The worker's own CUDA context, made when a run first asks for counters: the same read_counters path (CUPTI's
  // range profiler) as the built-ins' runs in the app and the CLI.
  std::unique_ptr<CudaContext> context;

  CounterReading read_counters(const std::function<void()>& work, const std::string& kernel_name, CounterSet set) {
    try {
      if (!context) context = CudaContext::create(0);
    } catch (const Error& e) {
      return {std::nullopt, e.full_message()};
    }
    context->set_counter_set(set);
    CounterReading reading = context->read_counters(work, kernel_name);
    context->release_counters();  // the app's process reads the built-ins' counters between runs of yours
    return reading;
  }
};

void PlanExecutor::pin(std::span<std::byte> memory) {
  if (std::find(impl_->pinned.begin(), impl_->pinned.end(), memory.data()) != impl_->pinned.end()) return;
  // Without the pin the copies still work (through staging buffers), only slower: a refusal is not an error.
  if (cudaHostRegister(memory.data(), memory.size(), cudaHostRegisterDefault) == cudaSuccess)
    impl_->pinned.push_back(memory.data());
  else
    cudaGetLastError();
}

void PlanExecutor::unpin(std::span<std::byte> memory) {
  const auto it = std::find(impl_->pinned.begin(), impl_->pinned.end(), memory.data());
  if (it == impl_->pinned.end()) return;
  cudaHostUnregister(*it);
  impl_->pinned.erase(it);
}

PlanExecutor::PlanExecutor() : impl_(std::make_unique<Impl>()) {}
PlanExecutor::~PlanExecutor() {
  for (void* p : impl_->pinned) cudaHostUnregister(p);
}

WorkerHello PlanExecutor::open_device() {
  WorkerHello h;
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
    h.message = e == cudaSuccess ? "there is no CUDA device" : std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
    return h;
  }
  cudaDeviceProp prop{};
  if (const cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) {
    h.message = std::string("cannot read the CUDA device (") + cudaGetErrorString(e) + ")";
    return h;
  }
  if (const cudaError_t e = cudaFree(nullptr); e != cudaSuccess) {
    h.message = std::string("cannot open the CUDA device (") + cudaGetErrorString(e) + ")";
    return h;
  }
  h.ok = true;
  h.device = prop.name;
  h.arch = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
  return h;
}

WorkerReply PlanExecutor::execute(const LaunchPlan& plan, std::span<std::byte> memory, std::span<std::byte> results,
                                  const std::function<void(int)>& progress) {
  WorkerReply reply;
  auto in_block = [](std::span<std::byte> block, std::uint64_t offset, std::uint64_t bytes) {
    return offset <= block.size() && bytes <= block.size() - offset;
  };
  auto host_of = [&](const BufferPlan& b) { return (b.in_result_block ? results : memory).data() + b.offset; };
  if (!in_block(memory, plan.module_offset, plan.module_bytes)) {
    reply.outcome = RunOutcome::Failed;
    reply.message = "the module lies outside the shared memory (a bug in kernelscope)";
    return reply;
  }
  for (const auto& b : plan.buffers)
    if (!in_block(b.in_result_block ? results : memory, b.offset, b.bytes)) {
      reply.outcome = RunOutcome::Failed;
      reply.message = "a buffer lies outside the shared memory (a bug in kernelscope)";
      return reply;
    }

  // The module, loaded once per hash.
  auto& libs = impl_->libraries;
  auto found = libs.find(plan.module_key);
  if (found == libs.end()) {
    const auto t0 = std::chrono::steady_clock::now();
    cudaLibrary_t lib = nullptr;
    const cudaError_t e = cudaLibraryLoadData(&lib, memory.data() + plan.module_offset, nullptr, nullptr, 0,
                                              nullptr, nullptr, 0);
    if (e != cudaSuccess) {
      cudaGetLastError();
      return failure(RunOutcome::Failed, e,
                     std::string("the GPU could not load your compiled kernel: ") + cudaGetErrorString(e) +
                         " (was it compiled for this GPU's architecture?)");
    }
    if (libs.size() >= kLoadedModules) {
      libs.erase(impl_->load_order.front());
      impl_->load_order.erase(impl_->load_order.begin());
    }
    found = libs.emplace(plan.module_key, Library(lib)).first;
    impl_->load_order.push_back(plan.module_key);
    reply.load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  cudaKernel_t kernel = nullptr;
  if (const cudaError_t e = cudaLibraryGetKernel(&kernel, found->second.get(), plan.entry.c_str());
      e != cudaSuccess) {
    cudaGetLastError();
    return failure(RunOutcome::Failed, e, "the compiled module has no kernel " + plan.entry);
  }

  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel)) == cudaSuccess) {
    reply.attributes = {true, attributes.numRegs, static_cast<int>(attributes.sharedSizeBytes),
                        static_cast<int>(attributes.localSizeBytes), attributes.maxThreadsPerBlock};
  } else {
    cudaGetLastError();
  }

  try {
    cuda::Stream stream;
    // This run's own buffers (empty where a held input serves), which become the next run's spares on every way
    // out of this scope (after a fault the worker exits anyway).
    std::vector<cuda::DeviceBuffer> owned(plan.buffers.size());
    struct ToSpares {
      std::vector<cuda::DeviceBuffer>& owned;
      std::vector<cuda::DeviceBuffer>& spare;
      ~ToSpares() {
        for (auto& b : owned)
          if (b.get()) spare.push_back(std::move(b));
      }
    } to_spares{owned, impl_->spare};
    std::vector<void*> device(plan.buffers.size(), nullptr);
    auto& held = impl_->inputs;
    std::vector<bool> needs_own(plan.buffers.size(), false);  // not a held input: a buffer of this run's own
    std::vector<bool> fill(plan.buffers.size(), true);        // uploaded or zeroed (a held input is neither)
    for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
      const BufferPlan& b = plan.buffers[i];
      if (b.content_key.empty()) {
        needs_own[i] = true;
        continue;
      }
      const auto it = std::find_if(held.begin(), held.end(), [&](const Impl::HeldInput& h) {
        return h.key == b.content_key && h.buffer.bytes() == b.bytes;
      });
      if (it != held.end()) {
        fill[i] = false;
        if (b.keep_as.empty()) {
          device[i] = it->buffer.get();  // read only: it stays held under its name
        } else {
          owned[i] = std::move(it->buffer);  // written by the launches: taken over, kept again under keep_as
          device[i] = owned[i].get();
          held.erase(it);
        }
      } else if (b.require_held) {
        reply.outcome = RunOutcome::Failed;
        reply.message = kNotHeldMessage;
        return reply;
      } else if (b.keep_as.empty()) {
        impl_->hold(b.content_key, cuda::DeviceBuffer(b.bytes, "your kernel's input"));
        device[i] = held.back().buffer.get();
      } else {
        needs_own[i] = true;
      }
    }
    {
      // The spares of the sizes this run needs are taken; the others are freed before anything new is allocated.
      std::vector<cuda::DeviceBuffer> spares = std::move(impl_->spare);
      impl_->spare.clear();
      for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
        if (!needs_own[i]) continue;
        const auto it = std::find_if(spares.begin(), spares.end(),
                                     [&](const cuda::DeviceBuffer& d) { return d.bytes() == plan.buffers[i].bytes; });
        if (it == spares.end()) continue;
        owned[i] = std::move(*it);
        spares.erase(it);
        device[i] = owned[i].get();
      }
    }
    for (std::size_t i = 0; i < plan.buffers.size(); ++i)
      if (needs_own[i] && !device[i]) {
        owned[i] = cuda::DeviceBuffer(plan.buffers[i].bytes, "a buffer of your kernel");
        device[i] = owned[i].get();
      }
    {
      cuda::EventTimer upload(stream.get());
      upload.start();
      for (std::size_t i = 0; i < plan.buffers.size(); ++i) {
        const BufferPlan& b = plan.buffers[i];
        if (!fill[i]) continue;
        if (b.upload)
          cuda::check(cudaMemcpyAsync(device[i], host_of(b), b.bytes, cudaMemcpyHostToDevice, stream.get()),
                      "uploading your kernel's input");
        else
          cuda::check(cudaMemsetAsync(device[i], 0, b.bytes, stream.get()), "clearing an output");
      }
      upload.stop();
      reply.upload_ms = upload.elapsed_ms();
    }

    void* record = nullptr;
    std::size_t record_bytes = 0;
    if (plan.checked) {
      for (void* d : device) reply.buffer_addresses.push_back(reinterpret_cast<std::uint64_t>(d));
      if (cudaLibraryGetGlobal(&record, &record_bytes, found->second.get(), kCheckRecordSymbol) != cudaSuccess) {
        cudaGetLastError();
        record = nullptr;
      } else {
        cuda::check(cudaMemsetAsync(record, 0, record_bytes, stream.get()), "clearing the check record");
      }
    }

    // The arguments: each kernel parameter's bytes, and a pointer to each (what cudaLaunchKernel takes).
    std::vector<void*> pointers(plan.arguments.size());
    std::vector<ArgumentBytes> storage(plan.arguments.size());
    std::vector<int> buffer_of(plan.arguments.size(), -1);
    for (std::size_t i = 0; i < plan.arguments.size(); ++i) buffer_of[i] = plan.arguments[i].buffer;
    auto fill_arguments = [&] {
      for (std::size_t i = 0; i < plan.arguments.size(); ++i) {
        const LaunchArgument& a = plan.arguments[i];
        ArgumentBytes& s = storage[i];
        switch (a.kind) {
          case ArgumentKind::Buffer: {
            void* p = device.at(static_cast<std::size_t>(buffer_of[i]));
            std::memcpy(s.bytes, &p, sizeof p);
            break;
          }
          case ArgumentKind::Int32: {
            const auto v = static_cast<int>(a.integer);
            std::memcpy(s.bytes, &v, sizeof v);
            break;
          }
          case ArgumentKind::Float32: {
            const auto v = static_cast<float>(a.real);
            std::memcpy(s.bytes, &v, sizeof v);
            break;
          }
          case ArgumentKind::InImage:
          case ArgumentKind::OutImage:
            s = image_argument(a, device.at(static_cast<std::size_t>(buffer_of[i])));
            break;
        }
        pointers[i] = s.bytes;
      }
    };
    fill_arguments();
    const dim3 grid(plan.grid[0], plan.grid[1], plan.grid[2]);
    const dim3 block(plan.block[0], plan.block[1], plan.block[2]);
    cuda::check(cudaStreamSynchronize(stream.get()), "setting up your kernel's buffers");
    if (progress) progress(0);

    const int launches = plan.warmup + plan.timed;
    cuda::Event start, stop;
    for (int k = 0; k < launches; ++k) {
      for (std::size_t b = 0; b < plan.buffers.size(); ++b)
        if (plan.buffers[b].zero_each_launch)
          cuda::check(cudaMemsetAsync(device[b], 0, plan.buffers[b].bytes, stream.get()),
                      "clearing the scalar result");
      start.record(stream.get());
      const cudaError_t launched =
          cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, pointers.data(), 0, stream.get());
      if (launched != cudaSuccess) {
        cudaGetLastError();
        return failure(RunOutcome::LaunchRefused, launched,
                       "the GPU refused to launch your kernel with grid " + dims(grid) + " and block " + dims(block) +
                           ": " + cudaGetErrorString(launched));
      }
      stop.record(stream.get());
      // A fault shows here; the context is then unusable, so nothing more is asked of it.
      if (const cudaError_t finished = cudaEventSynchronize(stop.get()); finished != cudaSuccess)
        return failure(RunOutcome::Fault, finished, fault_words(finished));
      float ms = 0;
      cuda::check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "cudaEventElapsedTime");
      if (k >= plan.warmup) reply.kernel_ms.push_back(static_cast<double>(ms));
      if (plan.swap_first_two && plan.arguments.size() >= 2) {
        std::swap(buffer_of[0], buffer_of[1]);
        fill_arguments();
      }
      if (progress) progress(k + 1);
    }

    // After a step's swaps the latest state is in whichever buffer argument 0 now names.
    auto latest = [&](std::size_t b) {
      if (plan.swap_first_two && plan.arguments.size() >= 2) {
        if (static_cast<int>(b) == plan.arguments[0].buffer) return static_cast<std::size_t>(buffer_of[0]);
        if (static_cast<int>(b) == plan.arguments[1].buffer) return static_cast<std::size_t>(buffer_of[1]);
      }
      return b;
    };
    cuda::EventTimer download(stream.get());
    download.start();
    for (std::size_t b = 0; b < plan.buffers.size(); ++b) {
      if (!plan.buffers[b].download) continue;
      cuda::check(cudaMemcpyAsync(host_of(plan.buffers[b]), device[latest(b)], plan.buffers[b].bytes,
                                  cudaMemcpyDeviceToHost, stream.get()),
                  "downloading your kernel's output");
    }
    download.stop();
    reply.download_ms = download.elapsed_ms();
    for (std::size_t b = 0; b < plan.buffers.size(); ++b) {
      if (plan.buffers[b].keep_as.empty()) continue;
      // Only a buffer of this run's own can be kept (a held read-only input stays under its own name).
      if (cuda::DeviceBuffer& kept = owned[latest(b)]; kept.get()) impl_->hold(plan.buffers[b].keep_as, std::move(kept));
    }

    if (record) {
      std::vector<std::uint32_t> words((record_bytes + 3) / 4, 0);
      cuda::check(cudaMemcpy(words.data(), record, record_bytes, cudaMemcpyDeviceToHost), "reading the check record");
      reply.check_record = nlohmann::json{{"words", words}};
    }

    // One more launch under the counter profiler, after the results went back: a step reads the latest state
    // and writes the other buffer, which nothing reads afterwards.
    if (plan.counters) {
      for (std::size_t b = 0; b < plan.buffers.size(); ++b)
        if (plan.buffers[b].zero_each_launch)
          cuda::check(cudaMemsetAsync(device[b], 0, plan.buffers[b].bytes, stream.get()),
                      "clearing the scalar result");
      reply.counters = impl_->read_counters(
          [&] {
            cuda::check(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, pointers.data(), 0,
                                         stream.get()),
                        "launching your kernel for its counters");
            cuda::check(cudaStreamSynchronize(stream.get()), "your kernel's launch for its counters");
          },
          plan.entry, plan.counter_set);
    }
  } catch (const Error& e) {
    const cudaError_t last = cudaGetLastError();
    reply = WorkerReply{};
    reply.outcome = e.kind() == ErrorKind::OutOfMemory ? RunOutcome::Failed : RunOutcome::Fault;
    reply.message = e.full_message();
    if (last != cudaSuccess) reply.cuda_error = cudaGetErrorName(last);
  }
  return reply;
}

}  // namespace ks::usercode
