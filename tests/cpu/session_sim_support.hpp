#pragma once
// Shared by the session's simulation tests: a CPU-only session and a paused simulation, started and settled.
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/session_support.hpp"
#include "session/session.hpp"

namespace ks::app::test_sim {

using session_test::cpu_options;  // a CPU-only session

// `kernel` on a width x height grid (0 x 0: from the loaded sample image), paused, with `params` ("name=value").
inline void start_paused(Session& s, const std::string& kernel, int width, int height,
                         const std::vector<std::string>& params = {}) {
  s.open_sample();
  s.select_kernel(kernel);
  s.simulation().set_playing(false);
  if (width > 0)
    s.simulation().set_grid_size(width, height);
  else
    s.simulation().set_start(SimStart::Image);
  for (const auto& p : params) s.set_param(p.substr(0, p.find('=')), p.substr(p.find('=') + 1));
  s.run_now();
}

// The frame the display shows, which the CPU backend keeps on the host.
inline const Image& host_frame(const Session& s) {
  const ui::DisplayFrame f = s.display_frame();
  if (!f.output) throw std::runtime_error("the simulation frame is not on the host");
  return *f.output;
}

}  // namespace ks::app::test_sim
