#include "report/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ks::report {

SvgCostChart::SvgCostChart(double t, double low, double high) : t_max(std::max(t, 1e-3)), lo(low), hi(high) {
  if (hi <= lo) hi = lo + std::max(1.0, std::fabs(lo) * 0.01);
  const double pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
}

double SvgCostChart::x(double t) const { return left + (W - left - right) * std::clamp(t / t_max, 0.0, 1.0); }

double SvgCostChart::y(double v) const { return top + (H - top - bottom) * (hi - v) / (hi - lo); }

std::string SvgCostChart::open(const std::string& title, const std::string& cost_label) const {
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      W, H);
  s += fmt::format("<text x=\"{}\" y=\"22\" font-size=\"14\">{}</text>\n", left, title);
  s += fmt::format("<path d=\"M{0} {1} V{2} H{3}\" fill=\"none\" stroke=\"black\"/>\n", left, top, H - bottom,
                   W - right);
  for (int k = 0; k <= 4; ++k) {
    const double t = t_max * k / 4, v = lo + (hi - lo) * k / 4;
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:.3g}</text>\n", x(t), H - bottom + 18,
                     t);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{:.6g}</text>\n", left - 6, y(v) + 4, v);
    s += fmt::format("<path d=\"M{:.1f} {:.1f} H{:.1f}\" stroke=\"#ddd\"/>\n", left + 1, y(v), W - right);
  }
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">seconds</text>\n", (left + W - right) / 2,
                   H - 14);
  s += fmt::format(
      "<text x=\"16\" y=\"{0:.1f}\" transform=\"rotate(-90 16 {0:.1f})\" text-anchor=\"middle\">{1}</text>\n",
      (top + H - bottom) / 2, cost_label);
  return s;
}

std::string SvgCostChart::steps(const std::vector<std::pair<double, double>>& points, const char* colour) const {
  if (points.empty()) return {};
  std::string path = fmt::format("M{:.1f} {:.1f}", x(points.front().first), y(points.front().second));
  for (std::size_t k = 1; k < points.size(); ++k)
    path += fmt::format(" H{:.1f} V{:.1f}", x(points[k].first), y(points[k].second));
  return fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n", path, colour);
}

}  // namespace ks::report
