#pragma once
// A small log-log plot drawn with ImGui's draw list (ImGui 1.86 has no log axes and the project has no
// ImPlot): a frame, decade ticks with labels (1e-3 .. 1e6 as 0.001, 1k, 1M, ...), axis titles, polylines with
// markers, labelled points and a legend. Used by the Lab section's size sweep and the Roofline section.
// Qt-free, GL-free.
#include <imgui.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ks::ui::panels {

struct LogLogSeries {
  std::string name;  // in the legend (empty: not listed)
  ImU32 colour = IM_COL32_WHITE;
  std::vector<ImVec2> points;  // (x, y) in data units, both > 0 (others are skipped); drawn in this order
  bool line = true;            // joined by a line; false: markers only
  float thickness = 1.5f;
  std::vector<std::string> labels;  // optional, one per point: drawn beside it
};

struct LogLogPlot {
  std::string x_title, y_title;  // "elements", "ms"
  std::vector<LogLogSeries> series;
  // The ranges; empty: the data's, widened to whole decades.
  std::optional<ImVec2> x_range, y_range;  // (min, max)
  float height = 180;                      // logical pixels; the width is the panel's
};

// Where a data point lands, for callers that draw more (the roofline's ridge): set by draw_log_log_plot.
struct LogLogFrame {
  ImVec2 min, max;                          // the plotting area on screen
  double x0 = 1, x1 = 10, y0 = 1, y1 = 10;  // its data range (log scale)
  bool valid = false;
  ImVec2 to_screen(double x, double y) const;
  // Where the points' labels and the legend were drawn (min x, min y, max x, max y), for tests of their layout.
  std::vector<std::array<float, 4>> label_boxes;
  std::array<float, 4> legend_box{};
};

// "0.001", "1", "1k", "1M", "1G": the label of a decade tick.
std::string decade_label(int exponent);

// Draws the plot at the cursor and advances it. Returns the frame (valid when there was data to place); with
// `hovered_point`, the nearest point within 6 pixels of the mouse is shown in a tooltip (series name, x, y).
LogLogFrame draw_log_log_plot(const LogLogPlot& plot, const char* id);

// Distinct colours for series 0, 1, 2, ... (variants in the sweep, streams in the timeline).
ImU32 series_colour(int index);

}  // namespace ks::ui::panels
