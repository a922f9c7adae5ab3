// The CUDA side of a lab run: arrays in the requested host memory mode, then repeats of upload -> kernel ->
// download between CUDA events (the serial run), and with --streams K the chunked pipeline: chunk c in stream
// c % K, its upload, kernel and download each after the previous chunk's of the same kind (one copy engine per
// direction does that anyway; waiting for it explicitly makes each bar's start event the real start, so the
// timeline shows what ran when rather than what waited in a queue).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/cuda/check.cuh"
#include "core/cuda/device_buffer.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/cuda/stream.cuh"
#include "core/cuda_context.hpp"
#include "lab/cuda/mode_buffer.cuh"
#include "lab/lab_cuda.hpp"
#include "lab/lab_memory.hpp"

namespace ks::lab {

namespace {

using cuda::ModeBuffer;
using ks::cuda::check;
using ks::cuda::Event;

cudaMemLocation device_location(int device) {
  cudaMemLocation l{};
  l.type = cudaMemLocationTypeDevice;
  l.id = device;
  return l;
}

cudaMemLocation host_location() {
  cudaMemLocation l{};
  l.type = cudaMemLocationTypeHost;
  l.id = 0;
  return l;
}

double elapsed(const Event& from, const Event& to) {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, from.get(), to.get()), "cudaEventElapsedTime");
  return double(ms);
}

// What the outcome's views point into.
struct Storage {
  std::vector<ModeBuffer> arrays;                  // indexed like the specs
  std::vector<std::vector<ModeBuffer>> per_chunk;  // [array][chunk]: PerChunk outputs of the streamed run
  std::vector<HostBytes> serial_outputs;           // [array]: the serial run's outputs, to compare
};

struct Sample {
  double upload = 0, kernel = 0, download = 0, total = 0;
  std::vector<TimelineBar> bars;
};

class LabCudaRunner {
 public:
  LabCudaRunner(CudaContext& context, const CudaJob& job)
      : context_(context), job_(job), specs_(*job.arrays), device_(context.device().index),
        storage_(std::make_shared<Storage>()) {
    for (int s = 0; s < job.streams; ++s) streams_.push_back(std::make_unique<ks::cuda::Stream>());
    allocate();
  }

  CudaOutcome run() {
    CudaOutcome out;
    const int runs = job_.warmup + job_.repeat;
    const int passes = job_.streams > 1 ? 2 : 1;
    std::vector<Sample> serial;
    for (int i = 0; i < runs; ++i) {
      progress(i, runs * passes, "CUDA runs (serial)");
      Sample s = serial_repeat();
      if (i == 0 && job_.warmup > 0) out.first_kernel_ms = s.kernel;
      if (i >= job_.warmup) serial.push_back(std::move(s));
    }
    summarise(serial, out.upload, out.kernel, out.download, out.end_to_end);
    (job_.streams > 1 ? out.serial_timeline : out.timeline) = median_sample(serial).bars;
    if (job_.streams > 1) {
      keep_serial_outputs();
      std::vector<Sample> streamed;
      prepare_chunk_events();
      for (int i = 0; i < runs; ++i) {
        progress(runs + i, runs * passes, "CUDA runs (streams)");
        Sample s = streamed_repeat();
        if (i >= job_.warmup) streamed.push_back(std::move(s));
      }
      TimingStats up, k, down;
      summarise(streamed, up, k, down, out.streamed_end_to_end);
      out.timeline = median_sample(streamed).bars;
      combine_chunks();
      out.streamed_matches_serial = matches_serial();
    }
    if (job_.counters) out.counters = read_counters();
    for (const auto& a : specs_) {
      if (a.is_input() && has_copies(job_.host)) out.upload_bytes += a.bytes();
      if (a.is_output() && job_.host != HostMode::Mapped) out.download_bytes += a.bytes();
    }
    out.arrays = result_views();
    out.storage = storage_;
    return out;
  }

 private:
  void progress(int done, int total, const char* stage) {
    throw_if_cancelled(*job_.control);
    job_.control->report(double(done) / total, stage);
  }

  void allocate() {
    const ArrayViews& sources = *job_.sources;
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      const ArraySpec& a = specs_[i];
      // Pageable inputs upload straight from the filled arrays; every other array has its own host memory.
      void* borrow = job_.host == HostMode::Pageable && a.role == ArrayRole::Input ? sources[i].data : nullptr;
      storage_->arrays.emplace_back(job_.host, a.bytes(), "array '" + a.name + "'", borrow);
      if (a.is_input() && !borrow && a.bytes()) std::memcpy(storage_->arrays[i].host(), sources[i].data, a.bytes());
    }
    storage_->per_chunk.resize(specs_.size());
    if (job_.streams > 1)
      for (std::size_t i = 0; i < specs_.size(); ++i)
        if (specs_[i].split == ArraySplit::PerChunk)
          for (int c = 0; c < job_.chunks; ++c)
            storage_->per_chunk[i].emplace_back(job_.host, specs_[i].bytes(), "array '" + specs_[i].name + "'");
    const std::size_t whole = job_.run->workspace_bytes(job_.size);
    const std::size_t piece = job_.streams > 1 ? job_.run->workspace_bytes(chunk_size(0)) : 0;
    for (int s = 0; s < job_.streams; ++s)
      workspaces_.emplace_back(s == 0 ? std::max(whole, piece) : piece, "the variant's workspace");
  }

  LabSize chunk_size(int c) const {
    LabSize piece = job_.size;
    piece.dims[0] = chunk_begin(job_.size.n(), job_.chunks, c + 1) - chunk_begin(job_.size.n(), job_.chunks, c);
    return piece;
  }

  // Bytes of one element along the first dimension (a row of a 2-D array).
  std::size_t row_bytes(const ArraySpec& a) const {
    return a.shape.empty() || a.shape[0] == 0 ? 0 : a.bytes() / std::size_t(a.shape[0]);
  }

  // Every repeat starts from the same host state: InOut arrays restored, managed pages back on the host.
  void prepare_repeat() {
    const ArrayViews& sources = *job_.sources;
    for (std::size_t i = 0; i < specs_.size(); ++i)
      if (specs_[i].role == ArrayRole::InOut && specs_[i].bytes())
        std::memcpy(storage_->arrays[i].host(), sources[i].data, specs_[i].bytes());
    if (job_.host == HostMode::Managed || job_.host == HostMode::ManagedPrefetch) {
      // managed-prefetch: outputs (whose old content does not matter) wait on the device, so that the kernel
      // writes without faults; everything else starts on the host.
      cudaStream_t s = streams_[0]->get();
      for (std::size_t i = 0; i < specs_.size(); ++i) {
        const ModeBuffer& b = storage_->arrays[i];
        const bool to_device = job_.host == HostMode::ManagedPrefetch && specs_[i].role == ArrayRole::Output;
        if (b.bytes())
          check(cudaMemPrefetchAsync(b.host(), b.bytes(), to_device ? device_location(device_) : host_location(), 0, s),
                "cudaMemPrefetchAsync");
      }
      for (auto& chunks : storage_->per_chunk)
        for (auto& b : chunks)
          if (b.bytes()) check(cudaMemPrefetchAsync(b.host(), b.bytes(), host_location(), 0, s), "cudaMemPrefetchAsync");
    }
    check(cudaDeviceSynchronize(), "preparing a repeat");
  }

  void copy_in(const ModeBuffer& b, std::size_t offset, std::size_t bytes, cudaStream_t s) {
    if (!bytes) return;
    char* host = static_cast<char*>(b.host()) + offset;
    char* dev = static_cast<char*>(b.device()) + offset;
    if (b.has_device_copy())
      check(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync (upload)");
    else if (b.mode() == HostMode::ManagedPrefetch)
      check(cudaMemPrefetchAsync(dev, bytes, device_location(device_), 0, s), "cudaMemPrefetchAsync (upload)");
  }

  void copy_out(const ModeBuffer& b, std::size_t offset, std::size_t bytes, cudaStream_t s) {
    if (!bytes) return;
    char* host = static_cast<char*>(b.host()) + offset;
    char* dev = static_cast<char*>(b.device()) + offset;
    if (b.has_device_copy())
      check(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync (download)");
    else if (b.mode() == HostMode::Managed || b.mode() == HostMode::ManagedPrefetch)
      check(cudaMemPrefetchAsync(host, bytes, host_location(), 0, s), "cudaMemPrefetchAsync (download)");
  }

  void launch(const LabLaunch& l, const Event& start, const Event& stop) {
    job_.run->before_launch(l);
    check(cudaEventRecord(start.get(), static_cast<cudaStream_t>(l.stream)), "cudaEventRecord");
    job_.run->launch(l);
    ks::cuda::check_launch("the " + job_.kernel->info().id + " kernel");
    check(cudaEventRecord(stop.get(), static_cast<cudaStream_t>(l.stream)), "cudaEventRecord");
  }

  // The whole problem in one launch on the first stream, its arrays on the device.
  LabLaunch whole_launch(cudaStream_t s) {
    LabLaunch l;
    l.size = job_.size;
    l.stream = s;
    l.workspace = workspaces_[0].get();
    l.workspace_bytes = workspaces_[0].bytes();
    for (std::size_t i = 0; i < specs_.size(); ++i)
      l.arrays.push_back({&specs_[i], storage_->arrays[i].device(), specs_[i].count()});
    return l;
  }

  // One more serial launch after the timed ones, under the counter profiler: its inputs uploaded as for a
  // repeat, not timed.
  CounterReading read_counters() {
    prepare_repeat();
    cudaStream_t s = streams_[0]->get();
    for (std::size_t i = 0; i < specs_.size(); ++i)
      if (specs_[i].is_input()) copy_in(storage_->arrays[i], 0, specs_[i].bytes(), s);
    check(cudaStreamSynchronize(s), "uploading the arrays for the counters");
    const LabLaunch l = whole_launch(s);
    return context_.read_counters(
        [&] {
          job_.run->before_launch(l);
          job_.run->launch(l);
          ks::cuda::check_launch("the " + job_.kernel->info().id + " kernel");
        },
        job_.kernel_name);
  }

  Sample serial_repeat() {
    prepare_repeat();
    cudaStream_t s = streams_[0]->get();
    Event* e = serial_events_.get();
    e[0].record(s);
    for (std::size_t i = 0; i < specs_.size(); ++i)
      if (specs_[i].is_input()) copy_in(storage_->arrays[i], 0, specs_[i].bytes(), s);
    e[1].record(s);
    const LabLaunch l = whole_launch(s);
    launch(l, e[2], e[3]);
    for (std::size_t i = 0; i < specs_.size(); ++i)
      if (specs_[i].is_output()) copy_out(storage_->arrays[i], 0, specs_[i].bytes(), s);
    e[4].record(s);
    check(cudaEventSynchronize(e[4].get()), "waiting for the GPU (a kernel or copy failed)");
    Sample x;
    x.upload = elapsed(e[0], e[1]);
    x.kernel = elapsed(e[2], e[3]);
    x.download = elapsed(e[3], e[4]);
    x.total = elapsed(e[0], e[4]);
    x.bars = {{"upload", 0, 0, 0, x.upload, bytes_of(true)},
              {"kernel", 0, 0, elapsed(e[0], e[2]), elapsed(e[0], e[3]), 0},
              {"download", 0, 0, elapsed(e[0], e[3]), x.total, bytes_of(false)}};
    return x;
  }

  std::uint64_t bytes_of(bool inputs, int chunk = -1) const {
    std::uint64_t b = 0;
    for (const auto& a : specs_) {
      if (inputs ? !a.is_input() : !a.is_output()) continue;
      if (chunk < 0 || a.split == ArraySplit::PerChunk) b += a.bytes();
      else if (a.split == ArraySplit::Sliced) b += std::uint64_t(chunk_size(chunk).n()) * row_bytes(a);
      else if (chunk == 0) b += a.bytes();  // Whole inputs go up with the first chunk
    }
    if (inputs ? !has_copies(job_.host) : job_.host == HostMode::Mapped) return 0;
    return b;
  }

  void prepare_chunk_events() {
    // Per chunk: upload start/end, kernel start/end, download start/end; one origin for the run.
    chunk_events_ = std::make_unique<Event[]>(std::size_t(job_.chunks) * 6);
  }

  Sample streamed_repeat() {
    prepare_repeat();
    const int C = job_.chunks;
    const std::int64_t n = job_.size.n();
    auto ev = [&](int c, int k) -> Event& { return chunk_events_[std::size_t(c) * 6 + std::size_t(k)]; };
    origin_.record(streams_[0]->get());
    for (int s = 1; s < job_.streams; ++s) check(cudaStreamWaitEvent(streams_[s]->get(), origin_.get(), 0), "cudaStreamWaitEvent");
    for (int c = 0; c < C; ++c) {
      const int si = c % job_.streams;
      cudaStream_t s = streams_[std::size_t(si)]->get();
      const std::int64_t begin = chunk_begin(n, C, c);
      const LabSize piece = chunk_size(c);
      auto after = [&](int kind) {
        if (c > 0) check(cudaStreamWaitEvent(s, ev(c - 1, kind).get(), 0), "cudaStreamWaitEvent");
      };
      after(1);
      ev(c, 0).record(s);
      for (std::size_t i = 0; i < specs_.size(); ++i) {
        const ArraySpec& a = specs_[i];
        if (!a.is_input()) continue;
        if (a.split == ArraySplit::Sliced)
          copy_in(storage_->arrays[i], std::size_t(begin) * row_bytes(a), std::size_t(piece.n()) * row_bytes(a), s);
        else if (c == 0)
          copy_in(storage_->arrays[i], 0, a.bytes(), s);
      }
      ev(c, 1).record(s);
      after(3);
      LabLaunch l;
      l.size = piece;
      l.offset = begin;
      l.stream = s;
      l.workspace = workspaces_[std::size_t(si)].get();
      l.workspace_bytes = workspaces_[std::size_t(si)].bytes();
      for (std::size_t i = 0; i < specs_.size(); ++i) {
        const ArraySpec& a = specs_[i];
        char* base = static_cast<char*>(storage_->arrays[i].device());
        if (a.split == ArraySplit::Sliced)
          l.arrays.push_back({&a, base ? base + std::size_t(begin) * row_bytes(a) : nullptr,
                              a.count() / std::max<std::int64_t>(1, a.shape[0]) * piece.n()});
        else if (a.split == ArraySplit::PerChunk)
          l.arrays.push_back({&a, storage_->per_chunk[i][std::size_t(c)].device(), a.count()});
        else
          l.arrays.push_back({&a, base, a.count()});
      }
      launch(l, ev(c, 2), ev(c, 3));
      after(5);
      ev(c, 4).record(s);
      for (std::size_t i = 0; i < specs_.size(); ++i) {
        const ArraySpec& a = specs_[i];
        if (!a.is_output()) continue;
        if (a.split == ArraySplit::Sliced)
          copy_out(storage_->arrays[i], std::size_t(begin) * row_bytes(a), std::size_t(piece.n()) * row_bytes(a), s);
        else if (a.split == ArraySplit::PerChunk)
          copy_out(storage_->per_chunk[i][std::size_t(c)], 0, a.bytes(), s);
      }
      ev(c, 5).record(s);
    }
    check(cudaEventSynchronize(ev(C - 1, 5).get()), "waiting for the GPU (a kernel or copy failed)");
    check(cudaDeviceSynchronize(), "waiting for the streams");
    Sample x;
    static constexpr const char* kLanes[3] = {"upload", "kernel", "download"};
    for (int c = 0; c < C; ++c)
      for (int lane = 0; lane < 3; ++lane) {
        const double a = elapsed(origin_, ev(c, 2 * lane)), b = elapsed(origin_, ev(c, 2 * lane + 1));
        const std::uint64_t bytes = lane == 0 ? bytes_of(true, c) : lane == 2 ? bytes_of(false, c) : 0;
        x.bars.push_back({kLanes[lane], c % job_.streams, c, a, b, bytes});
        (lane == 0 ? x.upload : lane == 1 ? x.kernel : x.download) += b - a;
      }
    x.total = elapsed(origin_, ev(C - 1, 5));
    return x;
  }

  static void summarise(const std::vector<Sample>& samples, TimingStats& up, TimingStats& k, TimingStats& down,
                        TimingStats& total) {
    std::vector<double> u, kk, d, t;
    for (const auto& s : samples) {
      u.push_back(s.upload);
      kk.push_back(s.kernel);
      d.push_back(s.download);
      t.push_back(s.total);
    }
    up = TimingStats::of(u);
    k = TimingStats::of(kk);
    down = TimingStats::of(d);
    total = TimingStats::of(t);
  }

  // The repeat whose end-to-end time is the median: its bars are the timeline shown.
  static const Sample& median_sample(const std::vector<Sample>& samples) {
    std::vector<std::size_t> order(samples.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return samples[a].total < samples[b].total; });
    return samples[order[(order.size() - 1) / 2]];
  }

  void keep_serial_outputs() {
    storage_->serial_outputs.resize(specs_.size());
    for (std::size_t i = 0; i < specs_.size(); ++i)
      if (specs_[i].is_output() && specs_[i].split == ArraySplit::Sliced && specs_[i].bytes()) {
        storage_->serial_outputs[i] = allocate_host(specs_[i].bytes(), "the serial run's '" + specs_[i].name + "'");
        std::memcpy(storage_->serial_outputs[i].get(), storage_->arrays[i].host(), specs_[i].bytes());
      }
  }

  void combine_chunks() {
    bool any = false;
    std::vector<ArrayViews> chunks(std::size_t(job_.chunks));
    ArrayViews outputs = result_views();
    for (int c = 0; c < job_.chunks; ++c) {
      chunks[std::size_t(c)].resize(specs_.size());
      for (std::size_t i = 0; i < specs_.size(); ++i) {
        chunks[std::size_t(c)][i].spec = &specs_[i];
        if (specs_[i].split != ArraySplit::PerChunk || !specs_[i].is_output()) continue;
        any = true;
        chunks[std::size_t(c)][i].data = storage_->per_chunk[i][std::size_t(c)].host();
        chunks[std::size_t(c)][i].count = specs_[i].count();
      }
    }
    if (any) job_.kernel->combine(chunks, outputs);
  }

  // Byte for byte, over the outputs that the chunks cut (sums combined from chunk partials may round apart).
  std::optional<bool> matches_serial() const {
    std::optional<bool> same;
    for (std::size_t i = 0; i < specs_.size(); ++i)
      if (storage_->serial_outputs.size() > i && storage_->serial_outputs[i])
        same = same.value_or(true) &&
               std::memcmp(storage_->serial_outputs[i].get(), storage_->arrays[i].host(), specs_[i].bytes()) == 0;
    return same;
  }

  ArrayViews result_views() const {
    ArrayViews v;
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      void* data = specs_[i].role == ArrayRole::Input ? (*job_.sources)[i].data : storage_->arrays[i].host();
      v.push_back({&specs_[i], data, specs_[i].count()});
    }
    return v;
  }

  CudaContext& context_;
  const CudaJob& job_;
  const std::vector<ArraySpec>& specs_;
  int device_;
  std::shared_ptr<Storage> storage_;
  std::vector<std::unique_ptr<ks::cuda::Stream>> streams_;
  std::vector<ks::cuda::DeviceBuffer> workspaces_;
  std::unique_ptr<Event[]> serial_events_ = std::make_unique<Event[]>(5);
  std::unique_ptr<Event[]> chunk_events_;
  Event origin_;
};

}  // namespace

CudaOutcome run_lab_cuda(CudaContext& context, const CudaJob& job) {
  // The context's device, whichever device this thread last used (a process may hold a context per GPU).
  context.make_current();
  LabCudaRunner runner(context, job);
  return runner.run();
}

std::uint64_t device_free_memory(CudaContext& context) {
  context.make_current();
  std::size_t free_bytes = 0, total = 0;
  check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  return free_bytes;
}

}  // namespace ks::lab
