#pragma once
// The block sweep: every block shape with power-of-two sides that the device can launch, timed, as a grid of
// width x height for the Launch panel's heatmap. The grid knows the device's limits; the kernel's own limits
// (registers, shared memory) show up as usage errors when a shape is measured, and those cells say why.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/image.hpp"
#include "core/launch_shape.hpp"
#include "engine/engine.hpp"

namespace ks::app {

struct SweepCell {
  enum class Status { Waiting, Ok, Invalid, Failed };
  BlockShape block;
  Status status = Status::Waiting;
  double median_ms = 0;
  double gbps = 0;
  double percent_of_copy = 0;
  double occupancy = 0;     // 0..1, theoretical
  std::string note;         // why the shape is invalid or failed
};

struct SweepGrid {
  std::string kernel, variant, params;
  ImageShape shape;
  std::vector<int> widths;   // columns
  std::vector<int> heights;  // rows
  std::vector<SweepCell> cells;  // row-major: cells[row * widths.size() + column]
  bool complete = false;     // every cell was tried (not cancelled)

  SweepCell& at(std::size_t row, std::size_t column) { return cells[row * widths.size() + column]; }
  const SweepCell& at(std::size_t row, std::size_t column) const { return cells[row * widths.size() + column]; }
  int runnable() const;                 // cells the sweep will run (not already invalid)
  const SweepCell* fastest() const;     // smallest median of the Ok cells, or null
};

// 1, 2, 4, ... up to `limit` (at least {1}).
std::vector<int> power_of_two_sides(int limit);

// The grid over power-of-two widths and heights up to the device's limits; shapes with more threads than a
// block may hold are Invalid from the start (with the reason), the rest wait to be measured.
SweepGrid make_sweep_grid(const DeviceInfo& device);

struct SweepCallbacks {
  // Times one shape; throws ks::Error. A usage error means the kernel cannot run that shape (Invalid).
  std::function<RunReport(BlockShape)> measure;
  std::function<bool()> cancelled;                                 // checked before each shape
  std::function<void(int done, int total, BlockShape next)> progress;  // before each shape
};

// Measures the waiting cells in order, row by row. Stops before the next shape once cancelled (the cells done
// keep their times, `complete` stays false). Other errors than usage errors mark the cell Failed and go on.
void run_sweep(SweepGrid& grid, const SweepCallbacks& callbacks);

}  // namespace ks::app
