#pragma once
// The roofline chart of a set of measured runs, drawn in software (report/canvas.hpp, report/font.hpp) and
// written as a PNG: log-log axes with decade ticks, each backend's roof (memory slope up to the ridge, then
// the FMA ceiling) in its own colour, one labelled point per run, a title and a legend with the peaks.
// `bench --roofline FILE.png` writes it; the layout is public so tests can find the lines independently.
#include <filesystem>
#include <string>
#include <vector>

#include "core/image.hpp"
#include "core/peaks.hpp"
#include "report/canvas.hpp"
#include "report/font.hpp"
#include "report/log_axis.hpp"

namespace ks::report {

// One backend: its roof and the runs measured on it.
struct RooflineSeries {
  ComputePeaks peaks;
  std::vector<RooflinePoint> points;
};

struct RooflineChartOptions {
  int width = 1200;
  int height = 800;
  std::string title = "Roofline";
  std::filesystem::path font = kDefaultFontPath;
};

// Where things go: the plot rectangle and the axes (x: operations per byte, y: GFLOP/s; y's pixel_first is
// the plot's bottom). Decades cover every drawable point, every ridge with a decade either side and every
// FMA ceiling.
struct RooflineLayout {
  Rect plot;
  LogAxis x, y;
  double scale = 1;           // text and strokes relative to an 800-pixel-high chart
  int undrawable_points = 0;  // points without operations or without a time (no place on log axes)
};

RooflineLayout roofline_layout(const std::vector<RooflineSeries>& series,
                               const RooflineChartOptions& options);
// The colour of series i: its roof, its points and its legend line.
Rgb roofline_color(std::size_t series_index);
// Whether a point can be drawn on log axes (intensity and rate both positive and finite).
bool drawable(const RooflinePoint& point);

// The chart as an RGB image of options.width x options.height. Usage error for a size below 320x240.
Image draw_roofline_chart(const std::vector<RooflineSeries>& series, const RooflineChartOptions& options,
                          const Font& font);
// Loads the font (an Io error naming fonts-dejavu-core when it is missing), draws, then saves `path` (.png)
// atomically: a failure leaves no file.
void write_roofline_chart(const std::filesystem::path& path, const std::vector<RooflineSeries>& series,
                          const RooflineChartOptions& options = {});

}  // namespace ks::report
