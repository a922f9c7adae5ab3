// A Life world past 2^30 cells in the app's session (CPU backend, cpu_bitpacked): refused with what to do on a
// byte variant, its memory said before it starts, shown through the density view of the window the view asks for
// (never the whole world), and painted at a zoomed-out view in the world's own cells, into the packed state:
// the cells under the brush and no others, at the odd right edge too (32769 = 512 x 64 + 1 columns), a step on
// from there equal to the byte variant's on the same cells. The world is 32769 x 32768, one row of cells more
// than 2^30, started from a glider (a random fill of a billion cells takes the CPU many seconds).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include "cpu/session_sim_support.hpp"
#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "render/world_window.hpp"
#include "sim/life_patterns.hpp"
#include "sim/simulation.hpp"

namespace ks::app {
namespace {

using test_sim::cpu_options;

constexpr int kWidth = 32769, kHeight = 32768;

void start_world(Session& s, const std::string& variant) {
  s.open_sample();
  s.select_kernel("life");
  s.simulation().set_playing(false);
  s.set_variant(variant);
  s.simulation().set_grid_size(kWidth, kHeight);
  s.simulation().set_pattern(std::make_shared<const sim::LifePattern>(sim::builtin_pattern("glider")));
  s.request_run();
  s.wait_idle();
}

// The frame shown, after asking for `window` of the world.
const Image& shown(Session& s, const sim::DensityWindow& window) {
  s.simulation().set_view_window(window);
  s.wait_idle();
  const auto& w = s.simulation().frame().window;
  if (!w || w->x0 != window.x0 || w->y0 != window.y0 || w->cells_per_pixel != window.cells_per_pixel)
    throw std::runtime_error("the frame is not the window asked for");
  return test_sim::host_frame(s);
}

// The live cells (255) of a one-cell-per-pixel window, as 0/1 rows.
std::vector<std::vector<int>> cells_of(const Image& frame) {
  std::vector<std::vector<int>> rows(std::size_t(frame.height()), std::vector<int>(std::size_t(frame.width())));
  for (int y = 0; y < frame.height(); ++y)
    for (int x = 0; x < frame.width(); ++x) {
      const float v = frame.row<float>(y)[x];
      EXPECT_TRUE(v == 0 || v == 255) << "a single cell is dead or alive, not " << v;
      rows[std::size_t(y)][std::size_t(x)] = v == 255;
    }
  return rows;
}

TEST(SessionSimWorld, AByteVariantRefusesAWorldPast2To30CellsAndNamesThePackedOne) {
  Session s(cpu_options());
  start_world(s, "cpu");
  SimulationRunner& r = s.simulation();
  ASSERT_TRUE(r.error()) << "a byte variant cannot hold 32769 x 32768";
  EXPECT_NE(r.error()->full_message().find("cpu_bitpacked"), std::string::npos) << r.error()->full_message();
  EXPECT_TRUE(r.memory_estimate().refused);
  // The session goes on: a packed variant takes the same world, its memory said before it starts.
  s.set_variant("cpu_bitpacked");
  const SimulationRunner::MemoryEstimate memory = r.memory_estimate();
  EXPECT_FALSE(memory.refused);
  EXPECT_NE(memory.text.find("of host memory"), std::string::npos) << memory.text;
}

TEST(SessionSimWorld, ItIsShownThroughTheViewsWindowAndPaintedInWorldCellsAtAnyZoom) {
  Session s(cpu_options());
  start_world(s, "cpu_bitpacked");
  SimulationRunner& r = s.simulation();
  ASSERT_FALSE(r.error()) << r.error()->full_message();
  ASSERT_TRUE(r.density_shown());
  ASSERT_EQ(r.stats().population, 5);

  // Before the view asks: the whole world in at most 1024 pixels a side, 33 cells a pixel (32 x 1024 < 32769).
  const ui::DisplayFrame f = s.display_frame();
  ASSERT_TRUE(f.output_placement);
  EXPECT_EQ(f.output_placement->cells_per_pixel, 33);
  EXPECT_EQ(f.output->width(), 993);  // 993 x 33 = 32769
  EXPECT_EQ(ui::shown_image_shape(f).width, kWidth);
  EXPECT_EQ(ui::shown_image_shape(f).height, kHeight);

  // Fitted into 1024 x 700 (46 cells a pixel), a click paints a disc of radius 2 around the cell under it.
  const ui::Size2 viewport{1024, 700};
  const ui::ViewState fitted = ui::fit(ui::ViewState{}, {kWidth, kHeight}, viewport);
  ASSERT_EQ(ui::cells_per_pixel_at(fitted.zoom), 46);
  const ui::Vec2 at = ui::screen_to_image(fitted, viewport, {300.5, 200.5});
  const int cx = int(std::floor(at.x)), cy = int(std::floor(at.y));
  r.set_brush({true, 2, 1.0});
  r.paint_line(at.x, at.y, at.x, at.y);
  s.wait_idle();
  EXPECT_EQ(r.stats().population, 5 + 13);  // 13 cells within 2 of the centre: 1 + 4 + 4 + 4
  {
    const auto cells = cells_of(shown(s, {cx - 3, cy - 3, 1, 7, 7}));
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx)
        EXPECT_EQ(cells[std::size_t(dy + 3)][std::size_t(dx + 3)], dx * dx + dy * dy <= 4 ? 1 : 0)
            << "cell (" << cx + dx << ", " << cy + dy << ")";
  }

  // At the right edge of the odd-width world: the disc's part inside it (4 cells of radius 1 at column 32768, the
  // last word's only cell), nothing past it, nothing wrapped round to column 0.
  r.set_brush({true, 1, 1.0});
  r.paint_line(32768.5, 100.5, 32768.5, 100.5);
  s.wait_idle();
  EXPECT_EQ(r.stats().population, 18 + 4);
  {
    const auto cells = cells_of(shown(s, {32760, 98, 1, 9, 5}));
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 9; ++x) {
        const int dx = 32760 + x - 32768, dy = 98 + y - 100;
        EXPECT_EQ(cells[std::size_t(y)][std::size_t(x)], dx * dx + dy * dy <= 1 ? 1 : 0) << x << "," << y;
      }
    const Image& left = shown(s, {0, 96, 1, 4, 9});
    for (float v : left.elements<float>()) EXPECT_EQ(v, 0.0f) << "nothing wrapped to the left edge";
  }

  // Zoomed out, each pixel is 255 x its share of live cells: over the whole world they add up to the population.
  {
    const Image& whole = shown(s, {0, 0, 64, 513, 512});
    double live = 0;
    for (float v : whole.elements<float>()) live += double(v) / 255.0 * 64 * 64;
    EXPECT_NEAR(live, 22, 1e-3);
  }

  // One step on: the painted disc evolves as the byte variant evolves the same 13 cells.
  r.step(1);
  s.wait_idle();
  EXPECT_EQ(r.generation(), 1);
  const auto stepped = cells_of(shown(s, {cx - 8, cy - 8, 1, 17, 17}));
  Engine engine;
  SimulationRequest small;
  small.kernel = "life";
  small.params = KernelRegistry::builtin().get("life").default_params();
  small.backend = Backend::Cpu;
  small.variant = "cpu";
  small.width = small.height = 17;
  Simulation reference(engine, small, SimulationStart{.image = Image(17, 17, 1, ElemType::U8)});  // all dead
  reference.paint(8, 8, 2, 1);  // the disc at the centre, as in the world
  reference.step(1);
  const Image expected = reference.image();
  for (int y = 0; y < 17; ++y)
    for (int x = 0; x < 17; ++x)
      EXPECT_EQ(stepped[std::size_t(y)][std::size_t(x)], expected.row<std::uint8_t>(y)[x] == 255 ? 1 : 0)
          << "cell (" << cx - 8 + x << ", " << cy - 8 + y << ") after one step";

  // Many steps of such a world take seconds on the CPU: the job box names them, and Cancel stops after the step
  // under way, with the window still responsive (the steps run on the worker, the session returns at once).
  r.step(50);
  Worker::Status job;
  for (int i = 0; i < 2000 && job.label.empty(); ++i) {  // until a slice runs (the worker takes it up)
    s.poll();
    job = s.job_status();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_NE(job.label.find("Stepping the 32769x32768 world"), std::string::npos) << job.label;
  s.cancel();
  s.wait_idle();
  EXPECT_LT(r.generation(), 1 + 50) << "cancelled";
  EXPECT_FALSE(r.work_queued()) << "the cancelled steps are dropped";
}

}  // namespace
}  // namespace ks::app
