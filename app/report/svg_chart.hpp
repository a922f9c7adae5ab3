#pragma once
// The frame of the SVG charts of a cost over time (the search's convergence curve, the proof's gap): a white
// 720x420 page with a title, axes with five ticks each ("seconds" across, a cost upwards) and step lines.
#include <string>
#include <utility>
#include <vector>

namespace ks::report {

struct SvgCostChart {
  static constexpr double W = 720, H = 420, left = 90, right = 24, top = 44, bottom = 56;
  double t_max = 1e-3;  // seconds at the right end
  double lo = 0, hi = 1;  // costs at the bottom and top (padded by 5% here)

  SvgCostChart(double t_max, double lo, double hi);
  double x(double t) const;
  double y(double v) const;
  // <svg ...>, the background, the title, the axes, their ticks and labels.
  std::string open(const std::string& title, const std::string& cost_label) const;
  // A step line through (time, cost) points: flat until the next point.
  std::string steps(const std::vector<std::pair<double, double>>& points, const char* colour) const;
};

}  // namespace ks::report
