// The CUDA backends of ks::Simulation: the state lives on the device in pitched planes (two sets, stepped
// from one to the other), each pass (a step; the temporal variant's k steps) is one launch timed between CUDA
// events, and nothing crosses to the host unless asked for (read, population, total). Everything about a
// request (variant, block against the device and the kernel) is checked before any device memory is taken.
#include <cuda_runtime.h>

#include <array>
#include <memory>
#include <vector>

#include "core/cuda/device_buffer.cuh"
#include "core/cuda/device_image.cuh"
#include "core/cuda/event_timer.cuh"
#include "sim/cpu/life_cpu.hpp"
#include "sim/cuda/sim_cuda.hpp"
#include "sim/cuda/sim_launch.cuh"
#include "sim/pass_steps.hpp"
#include "sim/sim_memory.hpp"

namespace ks::sim::cuda {

namespace {

namespace kc = ks::cuda;

// How a variant stores its state.
enum class Layout { Bytes, Words, Fields };

// Passes run back to back between events; the host waits once per chunk (to read the times), never between
// passes. Event k+1 of a chunk closes pass k and opens pass k+1, so the times add up to the chunk's duration. A
// pass of several steps (Life multistep, heat and Gray-Scott temporal) counts as that many steps of an equal
// share of its time.
class StepTimer {
 public:
  static constexpr int kChunk = 512;

  // launch_one(left) runs one pass of at most `left` steps and returns its steps.
  template <class F>
  void run(long long n, cudaStream_t s, F&& launch_one, const std::string& kernel,
           std::vector<double>& step_ms) {
    if (events_.empty())
      for (int i = 0; i <= kChunk; ++i) events_.push_back(std::make_unique<kc::Event>());
    for (long long done = 0; done < n;) {
      int passes = 0;
      pass_steps_.clear();
      events_[0]->record(s);
      for (long long queued = done; passes < kChunk && queued < n; ++passes) {
        pass_steps_.push_back(launch_one(n - queued));
        queued += pass_steps_.back();
        kc::check_launch(kernel);
        events_[std::size_t(passes) + 1]->record(s);
      }
      kc::check(cudaEventSynchronize(events_[std::size_t(passes)]->get()), ("the steps of " + kernel).c_str());
      for (int i = 0; i < passes; ++i) {
        float ms = 0;
        kc::check(
            cudaEventElapsedTime(&ms, events_[std::size_t(i)]->get(), events_[std::size_t(i) + 1]->get()),
            "cudaEventElapsedTime");
        const int steps = pass_steps_[std::size_t(i)];
        step_ms.insert(step_ms.end(), std::size_t(steps), double(ms) / steps);
        done += steps;
      }
    }
  }

 private:
  std::vector<std::unique_ptr<kc::Event>> events_;
  std::vector<int> pass_steps_;  // of the chunk being timed
};

// The launch of `variant` for the model and how it stores the state; usage Error for names the kernel lacks.
kc::SimLaunch make_launch(const SimModel& m, const std::string& variant, BlockShape block, Layout& layout) {
  if (m.kind == SimKind::Life) {
    if (variant == "naive") return layout = Layout::Bytes, kc::make_life_naive_launch(m, block);
    if (variant == "tiled") return layout = Layout::Bytes, kc::make_life_tiled_launch(m, block);
    if (variant == "bitpacked") return layout = Layout::Words, kc::make_life_bitpacked_launch(m, block);
    if (variant == "multistep") return layout = Layout::Words, kc::make_life_multistep_launch(m, block);
    throw_usage("life has no CUDA variant '" + variant + "'", "use naive, tiled, bitpacked or multistep");
  }
  layout = Layout::Fields;
  if (variant == "naive") return kc::make_field_naive_launch(m, block);
  if (variant == "strip") return kc::make_field_strip_launch(m, block);
  if (variant == "temporal") return kc::make_field_temporal_launch(m, block);
  throw_usage("no CUDA variant '" + variant + "' for heat and grayscott", "use naive, strip or temporal");
}

const char* kind_name(SimKind kind) {
  return kind == SimKind::Life ? "life" : kind == SimKind::Heat ? "heat" : "grayscott";
}

using Planes = kc::Planes;
using Plane = kc::Plane;

class CudaBackend final : public SimBackend {
 public:
  CudaBackend(CudaContext& ctx, const SimModel& m, std::string variant, Layout layout, BlockShape block,
              kc::SimLaunch launch, OccupancyReport occupancy)
      : ctx_(ctx),
        m_(m),
        variant_(std::move(variant)),
        layout_(layout),
        block_(block),
        launch_(std::move(launch)),
        occupancy_(std::move(occupancy)) {
    ctx_.make_current();  // the state's memory on the context's device, whichever device this thread last used
    fields_ = layout == Layout::Fields && m.kind == SimKind::GrayScott ? 2 : 1;
    row_bytes_ = layout == Layout::Bytes   ? std::size_t(m.width)
                 : layout == Layout::Words ? std::size_t(words_per_row(m.width)) * 8
                                           : std::size_t(m.width) * sizeof(float);
    for (int set = 0; set < 2; ++set)
      for (int f = 0; f < fields_; ++f) {
        auto img = std::make_shared<kc::DeviceImage>(row_bytes_, std::size_t(m.height));
        // Padding too: the vector loads of the strip kernel read past a row's end (never using the values),
        // and the packed grid relies on zero padding bits.
        kc::check(cudaMemset2DAsync(img->data(), img->pitch(), 0, img->pitch(), img->rows(), stream()),
                  "cudaMemset2DAsync");
        state_[set].push_back(std::move(img));
      }
  }

  void load(const Fields& s) override {
    if (layout_ == Layout::Words) return load_words(cpu::pack_life(s[0]));
    for (int f = 0; f < fields_; ++f) upload(*state_[cur_][std::size_t(f)], s[std::size_t(f)].data(), row_bytes_);
    kc::check(cudaStreamSynchronize(stream()), "waiting for the upload of the state");
  }

  void load_words(const cpu::LifeWords& words) override {
    if (layout_ != Layout::Words) throw Error(ErrorKind::Internal, "load_words: this variant keeps bytes");
    upload(*state_[cur_][0], words.data.data(), row_bytes_);
    kc::check(cudaStreamSynchronize(stream()), "waiting for the upload of the state");
  }

  // The rule, border and coefficients are arguments of the launch (and the border picks the Life kernel's
  // instance): a new launch, checked against the device like the first, replaces the old one only once it holds.
  // Launches already queued keep the arguments they were given.
  void set_model(const SimModel& m) override {
    Layout layout = layout_;
    kc::SimLaunch launch = make_launch(m, variant_, block_, layout);
    OccupancyReport occupancy = kc::occupancy_of(ctx_.device(), launch.shape);
    launch_ = std::move(launch);
    occupancy_ = std::move(occupancy);
    m_ = m;
  }

  void step(long long n, std::vector<double>& step_ms) override {
    timer_.run(
        n, stream(),
        [&](long long left) {
          const int steps = steps_in_next_pass(launch_.steps_per_pass, left);
          if (steps == launch_.steps_per_pass)
            launch_.run(stream(), planes(cur_), planes(1 - cur_));
          else
            launch_.run_fewer(stream(), planes(cur_), planes(1 - cur_), steps);
          cur_ = 1 - cur_;
          return steps;
        },
        launch_.shape.name, step_ms);
  }

  Fields read() override {
    Fields out;
    if (layout_ == Layout::Words) {
      std::vector<std::uint64_t> words(row_bytes_ / 8 * std::size_t(m_.height));
      download(*state_[cur_][0], words.data(), row_bytes_);
      Image cells(m_.width, m_.height, 1, ElemType::U8);
      cpu::unpack_life_rows(words.data(), row_bytes_ / 8, m_.width, m_.height, cells);
      out.push_back(std::move(cells));
      return out;
    }
    for (int f = 0; f < fields_; ++f) {
      Image img(m_.width, m_.height, 1, layout_ == Layout::Bytes ? ElemType::U8 : ElemType::F32);
      download(*state_[cur_][std::size_t(f)], img.data(), row_bytes_);
      out.push_back(std::move(img));
    }
    return out;
  }

  void paint(const Brush& b) override {
    switch (layout_) {
      case Layout::Bytes:
        kc::paint_bytes(plane(0), m_.width, m_.height, b, stream());
        break;
      case Layout::Words:
        kc::paint_words(plane(0), m_.width, m_.height, b, stream());
        break;
      case Layout::Fields:
        if (m_.kind == SimKind::Heat) {
          kc::paint_field(plane(0), m_.width, m_.height, b, float(b.value), stream());
        } else {
          kc::paint_field(plane(0), m_.width, m_.height, b, float(1.0 - 2.0 * b.value), stream());
          kc::paint_field(plane(1), m_.width, m_.height, b, float(b.value), stream());
        }
        break;
    }
    kc::check(cudaStreamSynchronize(stream()), "painting");
  }

  long long population() override {
    if (layout_ == Layout::Bytes)
      return kc::count_live_bytes(plane(0), m_.width, m_.height, scratch_.get(), stream());
    if (layout_ == Layout::Words)
      return kc::count_live_words(plane(0), words_per_row(m_.width), m_.height, scratch_.get(), stream());
    throw Error(ErrorKind::Internal, "population of a field");
  }
  Image density_view(const DensityWindow& window, ThreadPool& pool) override {
    if (layout_ != Layout::Words) return SimBackend::density_view(window, pool);
    if (!density_ || density_->row_bytes() != std::size_t(window.width) * sizeof(float) ||
        density_->rows() != std::size_t(window.height))
      density_ = std::make_shared<kc::DeviceImage>(std::size_t(window.width) * sizeof(float),
                                                   std::size_t(window.height));
    kc::density_view_words(plane(0), m_.width, m_.height, window, Plane{density_->data(), density_->pitch()},
                           stream());
    Image out(window.width, window.height, 1, ElemType::F32);
    kc::check(cudaMemcpy2DAsync(out.data(), out.shape().row_bytes(), density_->data(), density_->pitch(),
                                out.shape().row_bytes(), std::size_t(window.height), cudaMemcpyDeviceToHost,
                                stream()),
              "cudaMemcpy2DAsync (density view to the host)");
    kc::check(cudaStreamSynchronize(stream()), "waiting for the density view");
    return out;
  }
  double total() override {
    if (layout_ != Layout::Fields) return double(population());
    return kc::sum_field(plane(fields_ - 1), m_.width, m_.height, scratch_.get(), stream());
  }

  ImageShape stored_shape() const override {
    if (layout_ == Layout::Fields) return {m_.width, m_.height, fields_, ElemType::F32};
    return {int(row_bytes_), m_.height, 1, ElemType::U8};
  }
  std::string device_name() const override { return ctx_.device().name; }
  CounterReading read_counters() override {
    return ctx_.read_counters([&] { launch_.run(stream(), planes(cur_), planes(1 - cur_)); }, launch_.shape.name);
  }
  std::optional<BlockShape> block() const override { return block_; }
  std::optional<OccupancyReport> occupancy() const override { return occupancy_; }
  double copy_bandwidth_gbps() override { return ctx_.copy_bandwidth_gbps(); }

  DeviceImageRef device_image() override {
    if (layout_ == Layout::Words) {
      if (!display_)
        display_ = std::make_shared<kc::DeviceImage>(std::size_t(m_.width), std::size_t(m_.height));
      kc::unpack_words(plane(0), Plane{display_->data(), display_->pitch()}, m_.width, m_.height, stream());
      kc::check(cudaStreamSynchronize(stream()), "unpacking the cells for display");
      return ref(display_, {m_.width, m_.height, 1, ElemType::U8});
    }
    kc::check(cudaStreamSynchronize(stream()), "waiting for the last step");
    const ElemType type = layout_ == Layout::Bytes ? ElemType::U8 : ElemType::F32;
    return ref(state_[cur_][std::size_t(fields_ - 1)], {m_.width, m_.height, 1, type});
  }

  std::vector<DeviceImageRef> device_fields() override {
    kc::check(cudaStreamSynchronize(stream()), "waiting for the last step");
    std::vector<DeviceImageRef> refs;
    for (int f = 0; f < fields_; ++f) {
      const ImageShape shape = layout_ == Layout::Fields
                                   ? ImageShape{m_.width, m_.height, 1, ElemType::F32}
                                   : ImageShape{int(row_bytes_), m_.height, 1, ElemType::U8};
      refs.push_back(ref(state_[cur_][std::size_t(f)], shape));
    }
    return refs;
  }

 private:
  // Every device call of this backend goes through here: the app drives a simulation from more than one thread.
  cudaStream_t stream() const {
    ctx_.make_current();
    return static_cast<cudaStream_t>(ctx_.stream());
  }
  Plane plane(int f) const {
    return {state_[cur_][std::size_t(f)]->data(), state_[cur_][std::size_t(f)]->pitch()};
  }
  Planes planes(int set) const {
    Planes p{};
    for (int f = 0; f < fields_; ++f)
      p.p[f] = {state_[set][std::size_t(f)]->data(), state_[set][std::size_t(f)]->pitch()};
    return p;
  }
  void upload(const kc::DeviceImage& dst, const void* src, std::size_t src_pitch) {
    kc::check(cudaMemcpy2DAsync(dst.data(), dst.pitch(), src, src_pitch, row_bytes_, dst.rows(),
                                cudaMemcpyHostToDevice, stream()),
              "cudaMemcpy2DAsync (state to the GPU)");
  }
  void download(const kc::DeviceImage& src, void* dst, std::size_t dst_pitch) {
    kc::check(cudaMemcpy2DAsync(dst, dst_pitch, src.data(), src.pitch(), row_bytes_, src.rows(),
                                cudaMemcpyDeviceToHost, stream()),
              "cudaMemcpy2DAsync (state to the host)");
    kc::check(cudaStreamSynchronize(stream()), "waiting for the state");
  }
  static DeviceImageRef ref(const std::shared_ptr<kc::DeviceImage>& img, ImageShape shape) {
    int device = 0;
    kc::check(cudaGetDevice(&device), "cudaGetDevice");
    return DeviceImageRef{img->data(), img->pitch(), shape, img, device};
  }

  CudaContext& ctx_;
  SimModel m_;
  std::string variant_;
  Layout layout_;
  BlockShape block_;
  kc::SimLaunch launch_;
  OccupancyReport occupancy_;
  int fields_ = 1;
  std::size_t row_bytes_ = 0;
  std::vector<std::shared_ptr<kc::DeviceImage>> state_[2];
  int cur_ = 0;
  std::shared_ptr<kc::DeviceImage> display_;               // bit-packed Life unpacked for the display
  std::shared_ptr<kc::DeviceImage> density_;               // the last density view's pixels, kept for the next
  kc::DeviceBuffer scratch_{8, "the population counter"};  // device result of population() and total()
  StepTimer timer_;
};

}  // namespace

std::unique_ptr<SimBackend> make_cuda_backend(CudaContext& ctx, const SimModel& model,
                                              const std::string& variant, BlockShape block) {
  if (block.x < 1 || block.y < 1)
    throw_usage("block " + to_string(block) + " has no threads", "both sides must be at least 1, e.g. 32x8");
  Layout layout = Layout::Bytes;
  kc::SimLaunch launch = make_launch(model, variant, block, layout);
  // Validates the block against the device and the kernel (threads, dimensions, registers, shared memory).
  OccupancyReport occupancy = kc::occupancy_of(ctx.device(), launch.shape);
  kc::check(cudaSetDevice(ctx.device().index), "cudaSetDevice");
  const SimMemoryNeed need = simulation_memory(model.kind, variant, Backend::Cuda, model.width, model.height);
  std::size_t free_bytes = 0, total_bytes = 0;
  kc::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  // (No fmt in .cu files: nvcc's host pass cannot compile it.)
  require_memory(std::string(kind_name(model.kind)) + " " + variant + " on a " + std::to_string(model.width) + "x" +
                     std::to_string(model.height) + " grid",
                 need.device_bytes, free_bytes, "device", need.device_detail, " on " + ctx.device().name,
                 "use a smaller --size, or free the GPU (other processes hold its memory)");
  return std::make_unique<CudaBackend>(ctx, model, variant, layout, block, std::move(launch), std::move(occupancy));
}

}  // namespace ks::sim::cuda
