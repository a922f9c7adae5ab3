#pragma once
// The seam between ks::Simulation and the code that advances a state: one SimBackend per (kernel, variant).
// CPU backends keep the state in host memory, CUDA backends on the device; the state stays where it is between
// steps, and crosses only when asked (read, device_image, population).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/device_image_ref.hpp"
#include "core/image.hpp"
#include "core/kernel_counters.hpp"
#include "core/launch_shape.hpp"
#include "core/occupancy.hpp"
#include "sim/density_view.hpp"
#include "sim/sim_params.hpp"

namespace ks {
class ThreadPool;
class CudaContext;
}  // namespace ks

namespace ks::sim {

namespace cpu {
struct LifeWords;
}

// A state on the host, one image per field: Life {cells: u8, 0 dead, 255 alive}, heat {u: f32},
// Gray-Scott {u: f32, v: f32}; all width x height, 1 channel.
using Fields = std::vector<Image>;

// What every backend needs to know about the simulation it runs.
struct SimModel {
  SimKind kind = SimKind::Life;
  int width = 0, height = 0;
  LifeParams life;
  HeatParams heat;
  GrayScottParams grayscott;
};

// A disc of cells set to one value (see Simulation::paint for what the value means per kernel).
struct Brush {
  int x = 0, y = 0, radius = 0;
  double value = 0;
  bool covers(int cx, int cy) const {
    const long long dx = cx - x, dy = cy - y;
    return dx * dx + dy * dy <= 1LL * radius * radius;
  }
};

class SimBackend {
 public:
  virtual ~SimBackend() = default;

  virtual void load(const Fields& state) = 0;
  // Life variants that keep packed words (stores_life_words): the state as packed words, with no byte per cell
  // on the way (a 65536 x 65536 grid is 537 MB of words, 4.3 GB of bytes). Others: an Internal Error.
  virtual void load_words(const cpu::LifeWords& words);
  // Steps from now on run under `model`'s rule, border, coefficients and boundary; its kind and grid are the
  // backend's own. The state stays as it is. Throws (changing nothing) when the variant cannot run the model,
  // e.g. a CUDA block the other kernel instance of a Life border cannot run.
  virtual void set_model(const SimModel& model) = 0;
  // Advances n steps; appends one time per step in ms (CUDA events around each launch, or the host clock).
  virtual void step(long long n, std::vector<double>& step_ms) = 0;
  virtual Fields read() = 0;
  virtual void paint(const Brush& brush) = 0;
  virtual long long population() = 0;  // Life: live cells
  // Life: the fraction of live cells under each pixel of the window (sim/density_view.hpp), computed where the
  // state is. This default reads the state as bytes (read()), which only grids a byte per cell holds need.
  virtual Image density_view(const DensityWindow& window, ThreadPool& pool);
  virtual double total() = 0;          // heat: sum of u; Gray-Scott: sum of v
  // The state as this variant stores it, for the cost model (a bit-packed grid is width/8 bytes wide).
  virtual ImageShape stored_shape() const = 0;
  virtual std::string device_name() const = 0;
  virtual std::optional<BlockShape> block() const { return std::nullopt; }
  virtual std::optional<OccupancyReport> occupancy() const { return std::nullopt; }
  virtual double copy_bandwidth_gbps() { return 0; }
  // CUDA backends: the display image (Life u8 0/255, heat u, Gray-Scott v) and the raw fields on the device.
  virtual DeviceImageRef device_image();
  virtual std::vector<DeviceImageRef> device_fields();
  // CUDA backends: the hardware counters of one step's launch, written into the other state buffer and not
  // kept (the state and the generation stay as they are). CPU backends: none, with the reason.
  virtual CounterReading read_counters();
};

// Sets the brush's cells of host fields (Life: value != 0 alive; heat: u = value; Gray-Scott: v = value,
// u = 1 - 2 value). The value has been checked by Simulation::paint.
void paint_fields(Fields& fields, SimKind kind, const Brush& brush);

// CPU backends: "cpu" for every kernel, "cpu_bitpacked" for Life. Usage Error for other names.
std::unique_ptr<SimBackend> make_cpu_backend(const SimModel& model, const std::string& variant, ThreadPool& pool);

}  // namespace ks::sim
