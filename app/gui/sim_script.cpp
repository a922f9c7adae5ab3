#include "gui/sim_script.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "session/simulation/life_pattern_files.hpp"
#include "session/session.hpp"
#include "usercode/check/comparison.hpp"

namespace ks::gui {

namespace {

long long number(const QStringList& w, int i, const char* what) {
  bool ok = false;
  const long long v = i < w.size() ? w[i].toLongLong(&ok) : 0;
  if (!ok) throw_usage(fmt::format("'{}' needs {}", w.join(' ').toStdString(), what));
  return v;
}

double real(const QStringList& w, int i, const char* what) {
  bool ok = false;
  const double v = i < w.size() ? w[i].toDouble(&ok) : 0;
  if (!ok) throw_usage(fmt::format("'{}' needs {}", w.join(' ').toStdString(), what));
  return v;
}

std::string status(const app::Session& s) {
  const app::SimulationRunner& r = s.simulation();
  std::string line = fmt::format("sim kernel={} generation={} playing={} frame={}x{}", s.kernel().id, r.generation(),
                                 r.playing() ? "on" : "off", r.frame().shape().width, r.frame().shape().height);
  if (r.stats().population) line += fmt::format(" population={}", *r.stats().population);
  if (r.stats().total) line += fmt::format(" total={:.6g}", *r.stats().total);
  line += fmt::format(" steps={}", r.timing().stats.count);
  if (r.error()) line += " error=\"" + r.error()->full_message() + "\"";
  if (const auto& w = r.frame().window)  // a world shown through its density view: the window shown
    line += fmt::format(" world={}x{} window={},{}+{}x{}@{}", r.frame().world_width, r.frame().world_height, w->x0,
                        w->y0, w->width, w->height, w->cells_per_pixel);
  if (r.user_step()) line += " yours=" + r.user_step()->file_name;
  if (r.user_check())
    line += fmt::format(" check=\"{} step{} from generation {} against {}: {}\"", r.user_check()->steps,
                        r.user_check()->steps == 1 ? "" : "s", r.user_check()->generation, r.user_check()->reference,
                        usercode::comparison_summary(r.user_check()->comparison));
  return line;
}

// "sim cells": the pixels of the frame shown that are not dead, in the grid's cells (a density-shown world's
// window placed where it lies), at most kMaxListed of them: "cells 3: 16384,16384=255 ...".
std::string live_cells(const app::SimulationRunner& r) {
  constexpr int kMaxListed = 200;
  const app::SimulationFrame& f = r.frame();
  if (!f.host) throw_usage("sim cells needs a frame on the host", "use the CPU backend");
  const Image& image = *f.host;
  const int x0 = f.window ? f.window->x0 : 0, y0 = f.window ? f.window->y0 : 0;
  const int step = f.window ? f.window->cells_per_pixel : 1;
  std::string listed;
  long long count = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const double v = image.type() == ElemType::F32 ? double(image.row<float>(y)[x]) : double(image.row<std::uint8_t>(y)[x]);
      if (v == 0) continue;
      if (++count <= kMaxListed) listed += fmt::format(" {},{}={:.6g}", x0 + x * step, y0 + y * step, v);
    }
  return fmt::format("cells {}:{}", count, listed);
}

}  // namespace

bool run_sim_command(const QStringList& w, app::Session& s, long long& wait_until_generation) {
  if (w[0] == "pattern") {
    if (w.size() < 2) throw_usage("pattern needs a name or an .rle file");
    app::use_life_pattern(s, w[1].toStdString());
    return true;
  }
  if (w[0] != "sim") return false;
  if (!s.simulating()) throw_usage("no simulation kernel is selected", "kernel life, heat or grayscott first");
  app::SimulationRunner& r = s.simulation();
  const QString sub = w.size() > 1 ? w[1] : QString();
  if (sub == "play" || sub == "pause") {
    r.set_playing(sub == "play");
  } else if (sub == "reset") {
    r.reset();
  } else if (sub == "step") {
    r.step(number(w, 2, "a number of steps"));
  } else if (sub == "steps-per-frame") {
    r.set_steps_per_frame(int(number(w, 2, "a number of steps")));
  } else if (sub == "grid") {
    int width = 0, height = 0;
    if (w.size() < 3 || std::sscanf(w[2].toStdString().c_str(), "%dx%d", &width, &height) != 2)
      throw_usage("sim grid needs WxH, e.g. 512x512");
    r.set_grid_size(width, height);
  } else if (sub == "start") {
    const QString where = w.size() > 2 ? w[2] : QString();
    if (where == "parameters") r.set_start(app::SimStart::Parameters);
    else if (where == "image") r.set_start(app::SimStart::Image);
    else if (where == "pattern") r.set_start(app::SimStart::Pattern);
    else throw_usage("sim start needs parameters, image or pattern");
  } else if (sub == "brush") {
    app::SimulationRunner::Brush b = r.brush();
    if (w.size() < 3 || (w[2] != "on" && w[2] != "off")) throw_usage("sim brush needs on or off");
    b.enabled = w[2] == "on";
    if (w.size() > 3) b.radius = int(number(w, 3, "a radius"));
    if (w.size() > 4) b.value = real(w, 4, "a value");
    r.set_brush(b);
  } else if (sub == "paint") {
    const double x = real(w, 2, "X Y"), y = real(w, 3, "X Y");
    const double x2 = w.size() > 5 ? real(w, 4, "X2 Y2") : x, y2 = w.size() > 5 ? real(w, 5, "X2 Y2") : y;
    r.paint_line(x + 0.5, y + 0.5, x2 + 0.5, y2 + 0.5);  // cell centres
  } else if (sub == "export-frames") {
    if (w.size() < 4) throw_usage("sim export-frames needs DIR N");
    r.export_sequence(w[2].toStdString(), number(w, 3, "a number of frames"));
  } else if (sub == "export-gif") {
    if (w.size() < 5) throw_usage("sim export-gif needs FILE N K");
    r.export_animation(w[2].toStdString(), number(w, 3, "a number of frames"), number(w, 4, "steps between frames"),
                       // Out of int's range stays out of the delay's range (an error), rather than wrapping.
                       w.size() > 5 ? int(std::min(number(w, 5, "a delay in hundredths of a second"), 1LL << 20)) : kDefaultGifDelayCs);
  } else if (sub == "wait-generation") {
    wait_until_generation = number(w, 2, "a generation");
    if (!r.playing() && r.generation() < wait_until_generation)
      throw_usage("the simulation is paused and would never get there", "sim play first");
  } else if (sub == "check") {  // your step kernel: N steps of it and of the built-in from here, compared
    r.check_user_steps(w.size() > 2 ? number(w, 2, "a number of steps") : 1);
  } else if (sub == "cells") {
    std::puts(live_cells(r).c_str());
    std::fflush(stdout);
  } else if (sub == "print") {
    std::puts(status(s).c_str());
    std::fflush(stdout);
  } else {
    throw_usage("unknown sim command '" + sub.toStdString() + "'",
                "play, pause, reset, step N, steps-per-frame N, grid WxH, start ..., brush ..., paint X Y, "
                "export-frames DIR N, export-gif FILE N K [DELAY], wait-generation N, check [N], cells, print");
  }
  s.request_run();  // the start, grid or pattern may have changed
  return true;
}

}  // namespace ks::gui
