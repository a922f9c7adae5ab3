#include "report/roofline_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "io/image_io.hpp"

namespace ks::report {

namespace {

constexpr Rgb kBackground{255, 255, 255};
constexpr Rgb kInk{30, 30, 30};
constexpr Rgb kMuted{110, 110, 110};
constexpr Rgb kGrid{225, 225, 225};
constexpr Rgb kMinorGrid{242, 242, 242};

// Text sizes and line heights at scale 1 (an 800-pixel-high chart).
constexpr double kTitleSize = 22, kTextSize = 15, kLabelSize = 12, kLegendLine = 22;
constexpr double kPointRadius = 4.5;

int legend_lines(const std::vector<RooflineSeries>& series, int undrawable) {
  return int(series.size()) + (undrawable > 0 ? 1 : 0);
}

// "101 GFLOP/s", "51.2 TFLOP/s"; "14.8 GB/s", "3.01 TB/s".
std::string rate_text(double giga, const char* unit) {
  const bool tera = giga >= 1000;
  const double v = tera ? giga / 1000 : giga;
  const std::string number = v >= 100  ? fmt::format("{:.0f}", v)
                             : v >= 10 ? fmt::format("{:.1f}", v)
                                       : fmt::format("{:.2f}", v);
  return number + (tera ? " T" : " G") + unit;
}

std::string intensity_text(double v) {
  return fmt::format("{:.3g}", v);
}

// Liang-Barsky: clips the segment to `r` in place; false when nothing of it is inside.
bool clip(double& x0, double& y0, double& x1, double& y1, const Rect& r) {
  double t0 = 0, t1 = 1;
  const double dx = x1 - x0, dy = y1 - y0;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {x0 - r.x, r.right() - x0, y0 - r.y, r.bottom() - y0};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  const double sx = x0, sy = y0;
  x0 = sx + t0 * dx, y0 = sy + t0 * dy;
  x1 = sx + t1 * dx, y1 = sy + t1 * dy;
  return true;
}

void draw_axes(Canvas& c, const RooflineLayout& l, const Font& font) {
  const double s = l.scale;
  const Rect& p = l.plot;
  // Minor grid at 2..9 times each decade, then the decades over it.
  for (int d = l.x.first_decade; d < l.x.last_decade; ++d)
    for (int m = 2; m <= 9; ++m) {
      const double x = l.x.to_pixel(m * std::pow(10.0, d));
      c.line(x, p.y, x, p.bottom(), kMinorGrid);
      c.line(x, p.bottom(), x, p.bottom() + 4 * s, kMuted);
    }
  for (int d = l.y.first_decade; d < l.y.last_decade; ++d)
    for (int m = 2; m <= 9; ++m) {
      const double y = l.y.to_pixel(m * std::pow(10.0, d));
      c.line(p.x, y, p.right(), y, kMinorGrid);
      c.line(p.x - 4 * s, y, p.x, y, kMuted);
    }
  const double size = kTextSize * s;
  for (int d = l.x.first_decade; d <= l.x.last_decade; ++d) {
    const double x = l.x.to_pixel(std::pow(10.0, d));
    c.line(x, p.y, x, p.bottom(), kGrid);
    c.line(x, p.bottom(), x, p.bottom() + 8 * s, kInk);
    const std::string label = decade_label(d);
    font.draw(c, x - font.text_width(label, size) / 2, p.bottom() + 10 * s + font.ascent(size), label, size,
              kInk);
  }
  for (int d = l.y.first_decade; d <= l.y.last_decade; ++d) {
    const double y = l.y.to_pixel(std::pow(10.0, d));
    c.line(p.x, y, p.right(), y, kGrid);
    c.line(p.x - 8 * s, y, p.x, y, kInk);
    const std::string label = decade_label(d);
    font.draw(c, p.x - 11 * s - font.text_width(label, size), y + font.ascent(size) * 0.35, label, size,
              kInk);
  }
  c.stroke_rect(p, kMuted);
  const std::string x_title = "arithmetic intensity (operations per byte)";
  font.draw(c, p.x + (p.w - font.text_width(x_title, size)) / 2,
            p.bottom() + 10 * s + 2.4 * font.ascent(size), x_title, size, kInk);
  const std::string y_title = "GFLOP/s (operations per second / 1e9)";
  font.draw(c, 14 * s, p.y + (p.h + font.text_width(y_title, size)) / 2, y_title, size, kInk, true);
}

// A roof (memory slope at `gbps` up to the ridge, then the ceiling at `gops`), clipped to the plot, with
// `label` above the right end of its ceiling, or below it where the place above holds a label of `taken`; where
// both do (roofs a few percent apart), the line goes unlabelled rather than under another label. Adds the label's
// place to `taken`.
void draw_roof_line(Canvas& c, const RooflineLayout& l, double gbps, double gops, const std::string& label,
                    Rgb color, double width, const Font& font, std::vector<Rect>& taken) {
  const double s = l.scale;
  const double x_lo = std::pow(10.0, l.x.first_decade), x_hi = std::pow(10.0, l.x.last_decade);
  const double ridge = gbps > 0 ? gops / gbps : 0;
  if (gbps > 0 && gops > 0) {
    double ax = l.x.to_pixel(x_lo), ay = l.y.to_pixel(x_lo * gbps);
    double bx = l.x.to_pixel(ridge), by = l.y.to_pixel(gops);
    if (clip(ax, ay, bx, by, l.plot)) c.line(ax, ay, bx, by, color, width * s);
  }
  if (gops > 0) {
    double ax = l.x.to_pixel(std::max(ridge, x_lo)), ay = l.y.to_pixel(gops);
    double bx = l.x.to_pixel(x_hi), by = ay;
    if (clip(ax, ay, bx, by, l.plot)) c.line(ax, ay, bx, by, color, width * s);
    const double size = kLabelSize * s;
    const double w = font.text_width(label, size), h = font.ascent(size);
    const double x = l.plot.right() - w - 6 * s;
    for (const double baseline : {ay - 4 * s, ay + 4 * s + h}) {
      const Rect box{x, baseline - h, w, h};
      if (std::any_of(taken.begin(), taken.end(), [&](const Rect& t) { return t.overlaps(box); })) continue;
      font.draw(c, box.x, baseline, label, size, color);
      taken.push_back(box);
      return;
    }
  }
}

// The roof of one series, clipped to the plot; its ceiling label's place goes into `taken`.
void draw_roof(Canvas& c, const RooflineLayout& l, const ComputePeaks& peaks, Rgb color, const Font& font,
               std::vector<Rect>& taken) {
  draw_roof_line(c, l, peaks.memory_gbps, peaks.fma_gflops, "FMA " + rate_text(peaks.fma_gflops, "FLOP/s"), color,
                 2.5, font, taken);
}

// The roofs of a series' points other than its f32 FMA and copy roof (integer ceilings, cached copies), thin
// and labelled with their ceiling, so that every point is drawn under its own roof.
void draw_own_roofs(Canvas& c, const RooflineLayout& l, const RooflineSeries& sr, Rgb color, const Font& font,
                    std::vector<Rect>& taken) {
  std::vector<std::pair<std::string, std::string>> drawn;
  for (const auto& p : sr.points) {
    if (p.ceiling.name.empty() || !(p.memory.gbps > 0)) continue;
    if (p.ceiling.name == "f32 FMA" && p.memory.name == "copy") continue;  // the series' own roof
    const std::pair<std::string, std::string> key{p.ceiling.name, p.memory.name};
    if (std::find(drawn.begin(), drawn.end(), key) != drawn.end()) continue;
    drawn.push_back(key);
    draw_roof_line(c, l, p.memory.gbps, p.ceiling.gops, p.ceiling.name + " " + rate_text(p.ceiling.gops, "OP/s"),
                   color, 1.0, font, taken);
  }
}

// Labels go beside their point where they overlap nothing drawn so far, else nowhere.
void draw_points(Canvas& c, const RooflineLayout& l, const std::vector<RooflineSeries>& series,
                 std::vector<Rect> taken, const Font& font) {
  const double s = l.scale, r = kPointRadius * s, size = kLabelSize * s;
  struct Placed {
    double x, y;
    const RooflinePoint* point;
    Rgb color;
  };
  std::vector<Placed> placed;
  for (std::size_t i = 0; i < series.size(); ++i)
    for (const auto& p : series[i].points) {
      if (!drawable(p)) continue;
      const double x = l.x.to_pixel(p.intensity), y = l.y.to_pixel(p.gflops);
      placed.push_back({x, y, &p, roofline_color(i)});
      taken.push_back({x - r - 1, y - r - 1, 2 * r + 2, 2 * r + 2});
    }
  for (const auto& p : placed) {
    c.fill_circle(p.x, p.y, r, p.color);
    c.stroke_circle(p.x, p.y, r, kInk, 1.0 * s);
  }
  const double asc = font.ascent(size), gap = r + 3 * s;
  for (const auto& p : placed) {
    const double w = font.text_width(p.point->label, size), h = asc + font.descent(size);
    // Right, left, above, below, then the diagonals: the first free place wins.
    const Rect candidates[] = {{p.x + gap, p.y - h / 2, w, h},
                               {p.x - gap - w, p.y - h / 2, w, h},
                               {p.x - w / 2, p.y - gap - h, w, h},
                               {p.x - w / 2, p.y + gap, w, h},
                               {p.x + gap * 0.7, p.y - gap * 0.7 - h, w, h},
                               {p.x + gap * 0.7, p.y + gap * 0.7, w, h},
                               {p.x - gap * 0.7 - w, p.y - gap * 0.7 - h, w, h},
                               {p.x - gap * 0.7 - w, p.y + gap * 0.7, w, h}};
    for (const Rect& box : candidates) {
      if (!box.inside(l.plot)) continue;
      if (std::any_of(taken.begin(), taken.end(), [&](const Rect& t) { return t.overlaps(box); })) continue;
      font.draw(c, box.x, box.y + asc, p.point->label, size, kInk);
      taken.push_back(box);
      break;
    }
  }
}

void draw_header(Canvas& c, const RooflineLayout& l, const std::vector<RooflineSeries>& series,
                 const RooflineChartOptions& options, const Font& font) {
  const double s = l.scale;
  double y = 14 * s + font.ascent(kTitleSize * s);
  font.draw(c, l.plot.x, y, options.title, kTitleSize * s, kInk);
  y += 8 * s;
  const double size = kTextSize * s;
  for (std::size_t i = 0; i < series.size(); ++i) {
    y += kLegendLine * s;
    const ComputePeaks& p = series[i].peaks;
    c.line(l.plot.x, y - font.ascent(size) * 0.35, l.plot.x + 28 * s, y - font.ascent(size) * 0.35,
           roofline_color(i), 2.5 * s);
    const std::string text = fmt::format("{}: FMA peak {}, copy {}, ridge at {} op/B; {} run{}", p.where,
                                         rate_text(p.fma_gflops, "FLOP/s"), rate_text(p.memory_gbps, "B/s"),
                                         intensity_text(ridge_intensity(p)), series[i].points.size(),
                                         series[i].points.size() == 1 ? "" : "s");
    font.draw(c, l.plot.x + 36 * s, y, text, size, kInk);
  }
  if (l.undrawable_points > 0) {
    y += kLegendLine * s;
    font.draw(c, l.plot.x, y,
              fmt::format("{} run{} without operations or time not drawn (no place on log axes)",
                          l.undrawable_points, l.undrawable_points == 1 ? "" : "s"),
              size, kMuted);
  }
}

}  // namespace

bool drawable(const RooflinePoint& p) {
  return p.intensity > 0 && p.gflops > 0 && std::isfinite(p.intensity) && std::isfinite(p.gflops);
}

Rgb roofline_color(std::size_t i) {
  // Distinct on white and for the common colour blindnesses (Okabe-Ito).
  static constexpr Rgb palette[] = {
      {0, 114, 178}, {213, 94, 0}, {0, 158, 115}, {204, 121, 167}, {230, 159, 0}};
  return palette[i % std::size(palette)];
}

RooflineLayout roofline_layout(const std::vector<RooflineSeries>& series, const RooflineChartOptions& o) {
  RooflineLayout l;
  l.scale = o.height / 800.0;
  const double s = l.scale;
  constexpr double inf = std::numeric_limits<double>::infinity();
  double x_lo = inf, x_hi = 0, y_lo = inf, y_hi = 0;
  for (const auto& sr : series) {
    for (const auto& p : sr.points) {
      if (!drawable(p)) {
        ++l.undrawable_points;
        continue;
      }
      x_lo = std::min(x_lo, p.intensity), x_hi = std::max(x_hi, p.intensity);
      y_lo = std::min(y_lo, p.gflops), y_hi = std::max(y_hi, p.gflops);
    }
    if (const double ridge = ridge_intensity(sr.peaks); ridge > 0) {
      x_lo = std::min(x_lo, ridge / 10), x_hi = std::max(x_hi, ridge * 10);
    }
    if (sr.peaks.fma_gflops > 0) y_hi = std::max(y_hi, sr.peaks.fma_gflops * 1.5);  // room for its label
    for (const auto& p : sr.points)
      if (drawable(p) && p.ceiling.gops > 0) y_hi = std::max(y_hi, p.ceiling.gops * 1.5);
  }
  if (!(x_hi > 0)) x_lo = 0.01, x_hi = 100;
  decades_around(x_lo, x_hi, l.x.first_decade, l.x.last_decade);
  // The roofs enter at the left edge: show them from there unless that is far below every point.
  for (const auto& sr : series)
    if (sr.peaks.memory_gbps > 0)
      y_lo = std::min(y_lo, std::pow(10.0, l.x.first_decade) * sr.peaks.memory_gbps);
  if (!(y_hi > 0)) y_lo = 0.1, y_hi = 1000;
  if (!(y_lo > 0) || y_lo > y_hi) y_lo = y_hi / 1000;
  decades_around(y_lo, y_hi, l.y.first_decade, l.y.last_decade);
  l.y.first_decade = std::max(l.y.first_decade, l.y.last_decade - 9);

  const double top =
      14 * s + kTitleSize * s + 8 * s + kLegendLine * s * legend_lines(series, l.undrawable_points) + 16 * s;
  const double left = 92 * s, right = 30 * s, bottom = 76 * s;
  l.plot = {std::round(left), std::round(top), std::round(o.width - left - right),
            std::round(o.height - top - bottom)};
  l.x.pixel_first = l.plot.x;
  l.x.pixel_last = l.plot.right();
  l.y.pixel_first = l.plot.bottom();
  l.y.pixel_last = l.plot.y;
  return l;
}

Image draw_roofline_chart(const std::vector<RooflineSeries>& series, const RooflineChartOptions& options,
                          const Font& font) {
  if (options.width < 320 || options.height < 240 || options.width > 8192 || options.height > 8192)
    throw_usage(
        fmt::format("a roofline chart of {}x{} pixels cannot be drawn", options.width, options.height),
        "use a size from 320x240 to 8192x8192");
  const RooflineLayout l = roofline_layout(series, options);
  Canvas c(options.width, options.height, kBackground);
  draw_axes(c, l, font);
  std::vector<Rect> taken;
  for (std::size_t i = 0; i < series.size(); ++i) {
    draw_roof(c, l, series[i].peaks, roofline_color(i), font, taken);
    draw_own_roofs(c, l, series[i], roofline_color(i), font, taken);
  }
  draw_points(c, l, series, std::move(taken), font);
  draw_header(c, l, series, options, font);
  return std::move(c).take_image();
}

void write_roofline_chart(const std::filesystem::path& path, const std::vector<RooflineSeries>& series,
                          const RooflineChartOptions& options) {
  const Font font(options.font);
  save_image(draw_roofline_chart(series, options, font), path);
}

}  // namespace ks::report
