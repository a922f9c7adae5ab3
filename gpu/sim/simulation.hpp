#pragma once
// A running simulation (heat, life, grayscott), as the CLI and the GUI drive it. No Qt, no GL.
//
//   Runtime runtime;                     // or the process's Engine, which is one
//   SimulationRequest req{"life", spec.default_params(), Backend::Cuda};
//   Simulation sim(runtime, req, SimulationStart{.pattern = builtin_pattern("glider")});
//   sim.step(100);                       // 100 steps; the state stays on the GPU, each launch timed by events
//   Image frame = sim.image();           // u8 0/255 for Life, f32 for heat and Gray-Scott (v)
//   DeviceImageRef gpu = sim.device_image();  // the same on the device, for CUDA-GL interop
//   SimulationReport r = sim.report();   // median ms per step, steps/s, GB/s, % of the copy bandwidth
//
// Everything about the request (kernel, parameters including the stability limit, variant, block against the
// device and the kernel, grid size, pattern size) is checked in the constructor, before any memory is taken.
// Not thread-safe: one thread drives a Simulation (the GUI's worker), others read what it hands out.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/device_image_ref.hpp"
#include "core/image.hpp"
#include "core/kernel_counters.hpp"
#include "core/launch_shape.hpp"
#include "core/occupancy.hpp"
#include "core/peaks.hpp"
#include "core/timing.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"
#include "sim/density_view.hpp"
#include "sim/rle.hpp"
#include "sim/sim_memory.hpp"

namespace ks {

class Runtime;
namespace sim {
class SimBackend;
struct SimModel;
namespace cpu {
struct LifeWords;
}
}  // namespace sim

struct SimulationRequest {
  std::string kernel;                // "life", "heat", "grayscott"
  ParamSet params;                   // checked values (start from spec.default_params())
  Backend backend = Backend::Cpu;
  std::string variant;               // empty: "cpu" on the CPU backend, the fastest CUDA variant otherwise
  std::optional<BlockShape> block;   // CUDA only; empty: 32x8 (strip: a width that is a multiple of 32 or a
                                     // power of two, since neighbours travel by warp shuffles)
  int width = 0, height = 0;         // grid size; 0 x 0: the image's size, or kDefaultSimSize without an image
  // A backend of the caller's own in place of the registry's variants (the app steps a user's `step` kernel
  // through one): made once the model (kind, grid, parameters) is checked, and loaded with the initial state like
  // any other. `variant` is then only its name in reports ("yours" when empty); `backend` says where it runs (its
  // peaks are the roofline's); its frames are read on the host (image()), never through device_image().
  std::function<std::unique_ptr<sim::SimBackend>(const sim::SimModel&)> own_backend;
};

inline constexpr int kDefaultSimSize = 512;

// Where the state comes from (at most one of image and pattern); neither: random fill / hot spots / seed squares
// from the parameters.
struct SimulationStart {
  // (Default member initializers let callers name just one of them: SimulationStart{.pattern = p}.)
  std::optional<Image> image{};           // heat: u = luminance; grayscott: v = luminance/4; life: live where >= 0.5
  std::optional<sim::LifePattern> pattern{};  // life only: placed at the centre, dead elsewhere
};

struct SimulationStats {
  long long generation = 0;             // steps since the start or the last reset
  std::optional<long long> population;  // life: live cells
  std::optional<double> total;          // heat: total heat (sum of u); grayscott: sum of v
};

// What Simulation::set_params did with new parameters.
struct ParamUpdate {
  bool applied = false;              // the next step runs under them; the state and the generation stay
  std::vector<std::string> restart;  // not applied: the changed parameters that define the initial state
};

// The timing of the steps run so far, as the tables, JSON reports and the GUI's Timing panel show it.
struct SimulationReport {
  std::string kernel;
  std::string variant;
  Backend backend = Backend::Cpu;
  std::string device;
  int width = 0, height = 0;
  std::vector<std::pair<std::string, std::string>> params;
  std::optional<BlockShape> block;
  long long generation = 0;
  TimingStats step_time;             // per step, over the kept samples (the last kMaxTimingSamples steps)
  // The simulation's first step (it has no warm-up): on CUDA it includes loading the module; the median of many
  // steps hides it. None before a step.
  std::optional<double> first_launch_ms;
  double steps_per_second = 0;       // 1000 / median step time
  double cell_updates_per_second = 0;  // width * height * steps_per_second
  // One read and one write of the state as the variant stores it (multistep: of a pass, over the generations it
  // runs).
  std::uint64_t bytes_per_step = 0;
  double gbps = 0;                   // bytes_per_step / median step time
  double copy_bandwidth_gbps = 0;    // measured device copy bandwidth; 0 on the CPU backend
  double percent_of_copy = 0;        // 0 on the CPU backend
  std::optional<OccupancyReport> occupancy;
  // Per step, from the registry's cost model (operations per cell as sim_kernels.cpp counts them, bytes as
  // above) and the median step time, against the backend's peaks (Runtime::peaks).
  RooflineFigures roofline;
  std::optional<KernelCounters> counters;  // asked for and readable: one step's launch
  std::string counters_unavailable;        // asked for and not readable: why
};

class Simulation {
 public:
  static constexpr std::size_t kMaxTimingSamples = 1 << 20;

  Simulation(Runtime& runtime, SimulationRequest request, SimulationStart start = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Runs n >= 0 steps. CUDA: launches go back to back on the context's stream with an event between any two
  // (the event that closes one step opens the next); the host waits once per 512 steps to read the times, never
  // between steps.
  void step(long long n = 1);
  // Back to the initial state, generation 0; the timing samples are kept (clear_timings drops them).
  void reset();
  // New parameters for the running state (a GUI's slider): checked as the constructor checks them (each value
  // against its range, dt against the stability limit, a preset against F and k set by hand; a pattern's rule
  // unless `params` sets one), a usage Error that changes nothing when they do not hold. Rule, border,
  // coefficients, boundary and preset apply from the next step on, on the CPU and the CUDA backend alike; the
  // state, the generation and the timing samples stay, and reset() returns to the same initial state. A change
  // of a parameter that defines the initial state (sim::is_initial_state_param: density, seed, spots, ...)
  // cannot apply to a running state: then nothing changes, and `restart` names them for the caller, which makes
  // a new Simulation. (The grid size and the start are not parameters: they are the constructor's alone.)
  ParamUpdate set_params(ParamSet params);
  const ParamSet& params() const noexcept { return request_.params; }

  long long generation() const noexcept { return generation_; }
  int width() const noexcept;
  int height() const noexcept;
  const std::string& kernel() const noexcept { return request_.kernel; }
  const std::string& variant() const noexcept { return variant_; }
  Backend backend() const noexcept { return request_.backend; }
  // Whether device_image() shows the state (a CUDA variant of the registry); false: read it with image().
  bool frames_on_device() const noexcept { return request_.backend == Backend::Cuda && !request_.own_backend; }

  // The state on the host, for display and export: life u8 (0 dead, 255 alive), heat f32 u, grayscott f32 v.
  Image image();
  // Every field: life {cells}, heat {u}, grayscott {u, v}.
  std::vector<Image> fields();
  // CUDA backend only (a usage Error otherwise): image() on the device, finished (the stream is synchronised)
  // and valid until the next step, paint or reset; `owner` keeps the memory alive. Bit-packed Life is unpacked
  // into a display buffer by a kernel; the other variants hand out their state buffer itself.
  DeviceImageRef device_image();
  // CUDA backend only: the raw state (bit-packed Life: 64 cells per 64-bit word, shape = words*8 bytes wide).
  std::vector<DeviceImageRef> device_fields();

  // A brush: every cell within `radius` of (x, y) (a disc, clipped to the grid) is set. value: life 1 (alive)
  // or 0 (dead); heat the temperature; grayscott the concentration of v (0..0.5), with u = 1 - 2 v. Values out of
  // range are usage Errors, not clamped.
  void paint(int x, int y, int radius, double value);

  long long population();  // life only (usage Error otherwise); counted where the state is
  // Life only: f32, each pixel the fraction of live cells in its square of the window (sim/density_view.hpp),
  // computed where the state is (a kernel on the CUDA backend), so that a 65536 x 65536 world is shown zoomed out
  // without copying its cells. Usage Error for a window check_density_window refuses.
  Image density_view(const sim::DensityWindow& window);
  double total();          // heat: total heat; grayscott: sum of v; usage Error for life
  SimulationStats stats();

  // Not const: the first report of a CUDA simulation measures the device copy bandwidth (once per process).
  SimulationReport report();
  // The hardware counters of one step's launch, not kept as a step (the state and the generation stay); the
  // reports from now on carry them. CPU backend: none, with the reason.
  const CounterReading& read_counters();
  const std::vector<double>& step_ms() const noexcept { return step_ms_; }  // per step, oldest first
  void clear_timings() { step_ms_.clear(); }

  // The variant a request gets when it names none.
  static std::string default_variant(const KernelSpec& spec, Backend backend);
  // The memory the constructor would take for `request` (its variant, grid size and backend checked as the
  // constructor checks them), for a front end to show before it starts: a 65536 x 65536 Life world is 537 MB of
  // packed words per copy. The constructor refuses (usage Error) when the host lacks it, the CUDA backend when the
  // device does, before allocating.
  static sim::SimMemoryNeed memory_needed(const SimulationRequest& request, const SimulationStart& start = {});

 private:
  Runtime& runtime_;
  SimulationRequest request_;
  std::string variant_;
  std::unique_ptr<sim::SimModel> model_;
  void load_initial_state();

  std::vector<Image> initial_;                          // the start, or (packed Life) empty and:
  std::unique_ptr<sim::cpu::LifeWords> initial_words_;  // the start as packed words
  std::optional<std::string> pattern_rule_;  // the rule the start pattern's file names, if any
  std::unique_ptr<sim::SimBackend> backend_;
  long long generation_ = 0;
  std::vector<double> step_ms_;
  std::optional<CounterReading> counters_;  // the last read_counters()
  std::optional<double> first_step_ms_;  // kept through clear_timings and the trimming of step_ms_
};

}  // namespace ks
