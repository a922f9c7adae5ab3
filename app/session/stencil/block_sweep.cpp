#include "session/stencil/block_sweep.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks::app {

std::vector<int> power_of_two_sides(int limit) {
  std::vector<int> sides{1};
  while (sides.back() * 2 <= limit) sides.push_back(sides.back() * 2);
  return sides;
}

int SweepGrid::runnable() const {
  int n = 0;
  for (const auto& c : cells) n += c.status != SweepCell::Status::Invalid;
  return n;
}

const SweepCell* SweepGrid::fastest() const {
  const SweepCell* best = nullptr;
  for (const auto& c : cells)
    if (c.status == SweepCell::Status::Ok && (!best || c.median_ms < best->median_ms)) best = &c;
  return best;
}

SweepGrid make_sweep_grid(const DeviceInfo& d) {
  SweepGrid g;
  g.widths = power_of_two_sides(d.max_block_dim_x);
  g.heights = power_of_two_sides(d.max_block_dim_y);
  for (int h : g.heights)
    for (int w : g.widths) {
      SweepCell c;
      c.block = {w, h};
      if (c.block.threads() > d.max_threads_per_block) {
        c.status = SweepCell::Status::Invalid;
        c.note = fmt::format("{} threads: this GPU runs at most {} per block", c.block.threads(),
                             d.max_threads_per_block);
      }
      g.cells.push_back(std::move(c));
    }
  return g;
}

void run_sweep(SweepGrid& grid, const SweepCallbacks& cb) {
  const int total = grid.runnable();
  int done = 0;
  for (auto& cell : grid.cells) {
    if (cell.status == SweepCell::Status::Invalid) continue;
    if (cb.cancelled && cb.cancelled()) return;
    if (cb.progress) cb.progress(done, total, cell.block);
    try {
      const RunReport r = cb.measure(cell.block);
      cell.status = SweepCell::Status::Ok;
      cell.median_ms = r.kernel_time.median_ms;
      cell.gbps = r.gbps;
      cell.percent_of_copy = r.percent_of_copy;
      cell.occupancy = r.occupancy ? r.occupancy->occupancy : 0;
      cell.note.clear();
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Cancelled) return;  // the cell stays Waiting
      cell.status = e.kind() == ErrorKind::Usage ? SweepCell::Status::Invalid : SweepCell::Status::Failed;
      cell.note = e.what();
    }
    ++done;
  }
  grid.complete = true;
}

}  // namespace ks::app
