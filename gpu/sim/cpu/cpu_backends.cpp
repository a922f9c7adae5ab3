// The CPU backends of ks::Simulation: the state lives in host images (or packed words) and each step is timed by
// the host clock.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <numeric>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "sim/cpu/field_cpu.hpp"
#include "sim/cpu/life_cpu.hpp"
#include "sim/sim_backend.hpp"

namespace ks::sim {

DeviceImageRef SimBackend::device_image() {
  throw_usage("this simulation runs on the CPU: its state is not on a GPU", "use --backend cuda");
}
std::vector<DeviceImageRef> SimBackend::device_fields() {
  throw_usage("this simulation runs on the CPU: its state is not on a GPU", "use --backend cuda");
}
void SimBackend::load_words(const cpu::LifeWords&) {
  throw Error(ErrorKind::Internal, "load_words: this backend keeps no packed Life words");
}
Image SimBackend::density_view(const DensityWindow& window, ThreadPool& pool) {
  return cpu::density_view(cpu::pack_life(read().front()), window, pool);
}
CounterReading SimBackend::read_counters() {
  return {std::nullopt, counters_on_cpu_message("this simulation")};
}

namespace {

// Shared by the CPU backends: the name, the timing loop and the double-buffered host fields.
class CpuBackend : public SimBackend {
 public:
  explicit CpuBackend(ThreadPool& pool) : pool_(pool) {}
  std::string device_name() const override { return fmt::format("CPU ({} threads)", pool_.size()); }

  void step(long long n, std::vector<double>& step_ms) override {
    for (long long i = 0; i < n; ++i) {
      Stopwatch watch;
      step_once();
      step_ms.push_back(watch.elapsed_ms());
    }
  }

 protected:
  virtual void step_once() = 0;
  ThreadPool& pool_;
};

double sum_of(const Image& f) {
  const auto v = f.elements<float>();
  return std::accumulate(v.begin(), v.end(), 0.0, [](double s, float x) { return s + double(x); });
}

class LifeBackend final : public CpuBackend {
 public:
  LifeBackend(const SimModel& m, ThreadPool& pool)
      : CpuBackend(pool), torus_(m.life.torus), table_(life_table(m.life.rule)) {}
  void set_model(const SimModel& m) override {
    torus_ = m.life.torus;
    table_ = life_table(m.life.rule);
  }
  void load(const Fields& s) override {
    cells_ = s[0];
    next_ = Image(cells_.shape());
  }
  Fields read() override { return {cells_}; }
  void paint(const Brush& b) override {
    Fields f{std::move(cells_)};
    paint_fields(f, SimKind::Life, b);
    cells_ = std::move(f[0]);
  }
  long long population() override {
    const auto c = cells_.elements<std::uint8_t>();
    return std::count_if(c.begin(), c.end(), [](std::uint8_t v) { return v != 0; });
  }
  double total() override { return double(population()); }
  ImageShape stored_shape() const override { return cells_.shape(); }

 private:
  void step_once() override {
    cpu::life_step(cells_, next_, torus_, table_, pool_);
    std::swap(cells_, next_);
  }
  bool torus_;
  LifeTable table_;
  Image cells_, next_;
};

class LifeBitsBackend final : public CpuBackend {
 public:
  LifeBitsBackend(const SimModel& m, ThreadPool& pool)
      : CpuBackend(pool), torus_(m.life.torus), masks_(life_masks(m.life.rule)) {}
  void set_model(const SimModel& m) override {
    torus_ = m.life.torus;
    masks_ = life_masks(m.life.rule);
  }
  void load(const Fields& s) override { load_words(cpu::pack_life(s[0])); }
  void load_words(const cpu::LifeWords& words) override {
    words_ = words;
    next_ = words;
  }
  Fields read() override { return {cpu::unpack_life(words_)}; }
  void paint(const Brush& b) override { cpu::paint_life_words(words_, b); }
  long long population() override { return cpu::count_live(words_); }
  double total() override { return double(population()); }
  Image density_view(const DensityWindow& window, ThreadPool& pool) override {
    return cpu::density_view(words_, window, pool);
  }
  ImageShape stored_shape() const override {
    return {words_.words * 8, words_.height, 1, ElemType::U8};
  }

 private:
  void step_once() override {
    cpu::life_step_bits(words_, next_, torus_, masks_, pool_);
    std::swap(words_, next_);
  }
  bool torus_;
  LifeMasks masks_;
  cpu::LifeWords words_, next_;
};

class FieldBackend final : public CpuBackend {
 public:
  FieldBackend(const SimModel& m, ThreadPool& pool) : CpuBackend(pool), m_(m) {}
  void set_model(const SimModel& m) override { m_ = m; }
  void load(const Fields& s) override {
    fields_ = s;
    next_ = s;
  }
  Fields read() override { return fields_; }
  void paint(const Brush& b) override { paint_fields(fields_, m_.kind, b); }
  long long population() override { throw Error(ErrorKind::Internal, "population of a field"); }
  double total() override { return sum_of(fields_.back()); }
  ImageShape stored_shape() const override {
    return {m_.width, m_.height, int(fields_.size()), ElemType::F32};
  }

 private:
  void step_once() override {
    if (m_.kind == SimKind::Heat)
      cpu::heat_step(fields_[0], next_[0], m_.heat.boundary, float(m_.heat.boundary_value),
                     m_.heat.coefficients(), pool_);
    else
      cpu::grayscott_step(fields_[0], fields_[1], next_[0], next_[1], m_.grayscott.boundary,
                          m_.grayscott.coefficients(), pool_);
    std::swap(fields_, next_);
  }
  SimModel m_;
  Fields fields_, next_;
};

}  // namespace

std::unique_ptr<SimBackend> make_cpu_backend(const SimModel& model, const std::string& variant, ThreadPool& pool) {
  if (variant == "cpu") {
    if (model.kind == SimKind::Life) return std::make_unique<LifeBackend>(model, pool);
    return std::make_unique<FieldBackend>(model, pool);
  }
  if (variant == "cpu_bitpacked" && model.kind == SimKind::Life)
    return std::make_unique<LifeBitsBackend>(model, pool);
  throw Error(ErrorKind::Internal, "make_cpu_backend: no CPU variant '" + variant + "'");
}

}  // namespace ks::sim
